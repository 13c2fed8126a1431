#!/usr/bin/env bash
# The production bundle: what the Dockerfile's runtime stage copies, and nothing else.
#
#   bash scripts/bundle.sh OUT_DIR      (OUT_DIR must not exist or be empty; best outside the repo)
#
# Builds the four shipped services (cli, api, rollup-worker, scheduler) with turbo, then lays out
# OUT_DIR as the workspace with only their production closure: each project's package.json and
# its "files" (dist, without type declarations; the API's dashboard page is in its dist), and one
# node_modules/.pnpm holding production dependencies only. Entry points keep their workspace
# paths (`node services/rollup-worker/dist/main.js`), as in the README and docker-compose.yml,
# and the exports maps' `default` (dist) condition is the only one that resolves: no src/ ships.
#
# Why not one `pnpm deploy --prod` per service: deploy takes one project, so four services make
# four node_modules trees of mostly the same packages (245 MB together, measured, against this
# bundle's 95 MB). Instead this runs `pnpm install --prod --frozen-lockfile --offline` in the
# pruned workspace: the same lockfile, so the same versions as development, linked from the same
# pnpm store, so nothing is downloaded.
#
# Needs node and the pnpm that package.json pins on PATH (`source scripts/bootstrap.sh`; the
# Dockerfile installs it from the npm registry) and the workspace installed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[[ $# -eq 1 ]] || { echo "usage: bash scripts/bundle.sh OUT_DIR" >&2; exit 2; }
out=$1
say() { echo "[bundle] $*" >&2; }

services=(@tickertape/cli @tickertape/api @tickertape/rollup-worker @tickertape/scheduler)

pinned=$(node -p 'require(process.argv[1]).packageManager.replace(/^pnpm@/, "")' "$root/package.json")
command -v pnpm >/dev/null && [[ $(pnpm --version) == "$pinned" ]] ||
  { say "error: pnpm $pinned is not on PATH (source scripts/bootstrap.sh)"; exit 1; }
if [[ -e $out && -n $(ls -A "$out") ]]; then
  say "error: $out exists and is not empty"
  exit 1
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
started=$SECONDS

cd "$root"
filters=()
for service in "${services[@]}"; do filters+=("--filter=$service"); done
say "building ${services[*]}"
pnpm exec turbo run build "${filters[@]}" --output-logs=errors-only >&2
say "built in $((SECONDS - started)) s"

# The services and the workspace packages they depend on (devDependencies not followed), as the
# paths to ship: each project's package.json and the entries of its "files".
prod_filters=()
for service in "${services[@]}"; do prod_filters+=(--filter-prod "$service..."); done
mapfile -t paths < <(
  pnpm ls -r --depth -1 --json "${prod_filters[@]}" | node -e '
    const { readFileSync } = require("node:fs");
    const { join, relative } = require("node:path");
    for (const { path } of JSON.parse(readFileSync(0, "utf8"))) {
      const project = relative(process.argv[1], path);
      const { files = [] } = JSON.parse(readFileSync(join(path, "package.json"), "utf8"));
      for (const file of ["package.json", ...files]) console.log(join(project, file));
    }' "$root"
)
for path in "${paths[@]}"; do
  [[ -e $path ]] || { say "error: $path is missing (not built?)"; exit 1; }
done
((${#paths[@]} > ${#services[@]})) || { say "error: found no workspace projects"; exit 1; }

# The workspace root's manifests: the install below must see the same settings and lockfile,
# and the patches it applies to dependencies (patchedDependencies in pnpm-workspace.yaml).
cp package.json pnpm-workspace.yaml pnpm-lock.yaml .npmrc "$out/"
cp -R patches "$out/"
cp -R --parents "${paths[@]}" "$out/"
# Type declarations serve no running process.
find "$out" \( -name '*.d.ts' -o -name '*.d.ts.map' \) -type f -delete
mkdir -p "$out/scripts"
cp scripts/health-probe.mjs "$out/scripts/"

say "installing production dependencies"
installing=$SECONDS
store=$(pnpm store path)
(cd "$out" && pnpm install --prod --frozen-lockfile --offline --store-dir "$store" \
  --reporter=append-only >&2) ||
  { say "error: pnpm install in $out failed (is the workspace installed? source scripts/bootstrap.sh)"; exit 1; }
say "installed in $((SECONDS - installing)) s"

# The lockfile resolves @bull-board's valibot with its optional `typescript` peer (from the
# workspace root's devDependencies), so even a --prod install links the compiler; protobufjs
# depends on @types/node. Neither is ever loaded at run time: remove them and the links to them.
find "$out/node_modules/.pnpm" -mindepth 1 -maxdepth 1 \( -name 'typescript@*' -o -name '@types+*' \) \
  -exec rm -rf {} +
find "$out/node_modules" -xtype l -delete
find "$out/node_modules" -type d -name @types -empty -delete
# pnpm's command shims (tsc, tsserver) are scripts, not links: find those calling the compiler.
mapfile -t shims < <(find "$out/node_modules" -path '*/node_modules/.bin/*' -type f -exec grep -l '/typescript/' {} + || true)
((${#shims[@]} == 0)) || rm -f "${shims[@]}"

say "done in $((SECONDS - started)) s: $(du -sh "$out" | cut -f1) in $out"
