# Sourced by demo.sh, test.sh, bench.sh, dashboard.sh, faults.sh and .ci/run: puts the pnpm that
# package.json pins on PATH and installs the workspace's node modules.
#
# pnpm comes from the npm registry as a plain package (npm checks its tarball against the
# registry's integrity hash), installed into .stack/tools/, never through corepack: corepack's
# signature check fails on a cold cache ("No compatible signature found in package metadata")
# and only a second run works. The project's own copy also means a pnpm already on the machine,
# of whatever version or origin, plays no part. The version lives in one place: package.json's
# "packageManager" field (the Dockerfile reads it too).
export TURBO_TELEMETRY_DISABLED=1
export COREPACK_ENABLE_STRICT=0
tt_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tt_pnpm_version=$(node -p 'require(process.argv[1]).packageManager.replace(/^pnpm@/, "")' "$tt_root/package.json")
tt_pnpm_dir=${TT_STACK_DIR:-$tt_root/.stack}/tools/pnpm-$tt_pnpm_version
if [[ ! -x $tt_pnpm_dir/node_modules/.bin/pnpm ]]; then
  echo "[setup] installing pnpm $tt_pnpm_version from the npm registry into ${tt_pnpm_dir#"$tt_root"/}" >&2
  rm -rf "$tt_pnpm_dir"
  mkdir -p "$tt_pnpm_dir"
  # --prefix keeps it out of the project's own package.json and lockfile.
  npm install --prefix "$tt_pnpm_dir" --no-save --no-package-lock --silent \
    --no-fund --no-audit "pnpm@$tt_pnpm_version" >&2 ||
    { echo "[setup] error: npm could not install pnpm@$tt_pnpm_version" >&2; return 1 2>/dev/null || exit 1; }
fi
export PATH=$tt_pnpm_dir/node_modules/.bin:$PATH
[[ $(pnpm --version) == "$tt_pnpm_version" ]] ||
  { echo "[setup] error: $(command -v pnpm) is not pnpm $tt_pnpm_version" >&2; return 1 2>/dev/null || exit 1; }
(cd "$tt_root" && pnpm install --frozen-lockfile --reporter=silent) ||
  { echo "[setup] error: pnpm install failed" >&2; return 1 2>/dev/null || exit 1; }
unset tt_root tt_pnpm_version tt_pnpm_dir
