#!/usr/bin/env bash
# Scaffolds a workspace package with the house conventions: one exports map with a `source`
# condition (tests and typecheck read src/, runtime reads dist/), strict tsconfig, jest/lint
# scripts. Usage: scripts/new-package.sh packages|services|tools NAME "description"
set -euo pipefail
kind=$1 name=$2 description=$3
dir=$kind/$name
mkdir -p "$dir/src" "$dir/test/unit"
cat >"$dir/package.json" <<JSON
{
  "name": "@tickertape/$name",
  "version": "0.1.0",
  "private": true,
  "description": "$description",
  "type": "module",
  "exports": {
    ".": {
      "source": "./src/index.ts",
      "types": "./dist/index.d.ts",
      "default": "./dist/index.js"
    }
  },
  "files": ["dist"],
  "scripts": {
    "build": "tsc -p tsconfig.build.json",
    "typecheck": "tsc -p tsconfig.json --noEmit",
    "lint": "eslint .",
    "test": "pnpm --workspace-root exec jest $dir/"
  },
  "dependencies": {},
  "devDependencies": {}
}
JSON
cat >"$dir/tsconfig.json" <<'JSON'
{
  "extends": "../../tsconfig.base.json",
  "compilerOptions": { "noEmit": true },
  "include": ["src", "test"]
}
JSON
cat >"$dir/tsconfig.build.json" <<'JSON'
{
  "extends": "../../tsconfig.base.json",
  "compilerOptions": {
    "rootDir": "src",
    "outDir": "dist",
    "customConditions": []
  },
  "include": ["src"],
  "exclude": ["src/**/*.test.ts"]
}
JSON
