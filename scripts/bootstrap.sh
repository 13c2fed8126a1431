# Sourced by demo.sh, test.sh and .ci/run: makes pnpm available (through corepack, at the
# version package.json pins) and installs the workspace's node modules.
export COREPACK_ENABLE_DOWNLOAD_PROMPT=0
export TURBO_TELEMETRY_DISABLED=1
if ! pnpm --version >/dev/null 2>&1; then
  # Corepack < 0.31 cannot verify the registry's current signing keys; a pinned newer one can.
  if [[ $(corepack --version 2>/dev/null || echo 0) < 0.31 ]]; then
    npm install --global --silent corepack@0.36.0
  fi
  corepack enable
fi
pnpm install --frozen-lockfile --reporter=silent
