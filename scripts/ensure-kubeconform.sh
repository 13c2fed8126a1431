#!/usr/bin/env bash
# Prints two lines: the path of a kubeconform binary and the -schema-location template of the
# Kubernetes JSON schemas it checks the chart's rendered manifests against (infra/k8s). kubeconform
# is built from the Go module proxy; its default schemas are downloaded from GitHub at run time,
# which CI cannot reach, so the schemas come from PyPI instead: the kubernetes-validate wheel
# vendors them (strict: an unknown field is an error) for each Kubernetes minor. Both are cached
# outside the checkout on first use (~1 min). Messages go to stderr.
set -euo pipefail

version=${KUBECONFORM_VERSION:-v0.8.0}
schemas_version=${KUBERNETES_VALIDATE_VERSION:-1.37.0}
format=2 # of the extracted folder: bump when the extraction below changes
dir=${XDG_CACHE_HOME:-$HOME/.cache}/tickertape/kubeconform-$version
kubeconform=$dir/kubeconform
schemas=${XDG_CACHE_HOME:-$HOME/.cache}/tickertape/kubernetes-json-schema-$schemas_version

if ! [[ -x $kubeconform && $(cat "$dir/.complete" 2>/dev/null) == "$version" ]]; then
  command -v go >/dev/null || { echo "ensure-kubeconform: go is not installed (needed to build kubeconform $version)" >&2; exit 1; }
  echo "ensure-kubeconform: building kubeconform $version from the Go module proxy into $dir" >&2
  mkdir -p "$dir"
  log=$(mktemp)
  GOBIN=$dir GOFLAGS=-mod=mod go install "github.com/yannh/kubeconform/cmd/kubeconform@$version" >"$log" 2>&1 ||
    { cat "$log" >&2; rm -f "$log"; echo "ensure-kubeconform: go install kubeconform@$version failed" >&2; exit 1; }
  rm -f "$log"
  echo "$version" >"$dir/.complete"
fi

if [[ $(cat "$schemas/.complete" 2>/dev/null) != "$schemas_version.$format" ]]; then
  echo "ensure-kubeconform: fetching the Kubernetes JSON schemas (PyPI kubernetes-validate $schemas_version) into $schemas" >&2
  python3 -m pip --version >/dev/null 2>&1 || bash "$(dirname "${BASH_SOURCE[0]}")/../infra/local/ensure-debian.sh" python3-pip pip3 pip3 >&2
  wheel=$(mktemp -d)
  trap 'rm -rf "$wheel"' EXIT
  python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$wheel" "kubernetes-validate==$schemas_version" >&2
  rm -rf "$schemas" && mkdir -p "$schemas"
  # Only the strict schema folders (v1.NN.0-local-strict/<kind>-<group>-<version>.json). Each names
  # itself https://kubernetes.io/api/… ($id) and refers to /api/_definitions.json under it, which
  # kubeconform would fetch from the network: without the $id and with the ref made relative, it
  # resolves to the _definitions.json beside each schema.
  python3 - "$wheel"/kubernetes_validate-*.whl "$schemas" <<'PY'
import json, os, sys, zipfile
prefix = 'kubernetes_validate/kubernetes-json-schema/'
with zipfile.ZipFile(sys.argv[1]) as wheel:
    for name in wheel.namelist():
        if not (name.startswith(prefix) and '-strict/' in name and name.endswith('.json')):
            continue
        target = os.path.join(sys.argv[2], name[len(prefix):])
        os.makedirs(os.path.dirname(target), exist_ok=True)
        schema = json.loads(wheel.read(name).decode().replace('"/api/_definitions.json#', '"_definitions.json#'))
        schema.pop('$id', None)
        with open(target, 'w') as out:
            json.dump(schema, out)
PY
  echo "$schemas_version.$format" >"$schemas/.complete"
fi

echo "$kubeconform"
echo "$schemas/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json"
