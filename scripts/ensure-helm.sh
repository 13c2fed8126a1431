#!/usr/bin/env bash
# Prints the path of a helm binary of the version the chart is tested with (infra/k8s), building it
# from the Go module proxy the first time (~3 min) and caching it outside the checkout, so a clean
# clone (CI) reuses it. Messages go to stderr; stdout is only the path.
set -euo pipefail

version=${HELM_VERSION:-v3.16.4}
dir=${XDG_CACHE_HOME:-$HOME/.cache}/tickertape/helm-$version
helm=$dir/helm

# `go install` leaves helm's own version string unset (it prints only the minor version), so the
# marker file written after a complete build says which version the binary is.
if [[ -x $helm && $(cat "$dir/.complete" 2>/dev/null) == "$version" ]]; then
  echo "$helm"
  exit 0
fi
command -v go >/dev/null || { echo "ensure-helm: go is not installed (needed to build helm $version)" >&2; exit 1; }
echo "ensure-helm: building helm $version from the Go module proxy into $dir (~3 min, once)" >&2
mkdir -p "$dir"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
GOBIN=$dir GOFLAGS=-mod=mod go install "helm.sh/helm/v3/cmd/helm@$version" >"$log" 2>&1 ||
  { cat "$log" >&2; echo "ensure-helm: go install helm.sh/helm/v3/cmd/helm@$version failed" >&2; exit 1; }
echo "$version" >"$dir/.complete"
echo "$helm"
