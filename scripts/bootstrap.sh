# Sourced by demo.sh, test.sh and .ci/run: makes pnpm available (through corepack, at the
# version package.json pins) and installs the workspace's node modules.
export COREPACK_ENABLE_DOWNLOAD_PROMPT=0
export TURBO_TELEMETRY_DISABLED=1
if ! pnpm --version >/dev/null 2>&1; then
  # The corepack bundled with Node 20 cannot verify the npm registry's current signing keys
  # ("No compatible signature found"); a newer corepack from the registry can.
  npm install --global --silent corepack@0.36.0
  corepack enable
  pnpm --version >/dev/null
fi
pnpm install --frozen-lockfile --reporter=silent
