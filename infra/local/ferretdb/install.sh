#!/usr/bin/env bash
# Builds FerretDB (MongoDB wire protocol over SQLite or PostgreSQL) from the Go module proxy and
# puts the binary at DEST/ferretdb. Idempotent: a second run with the same version, Go and patches
# returns at once; a changed patch or version rebuilds.
#
#   install.sh [DEST]     DEST defaults to .stack/lib/ferretdb-<version>
#
# Environment: TT_FERRETDB_VERSION (default v1.24.2). GOMODCACHE, GOCACHE and GOPROXY are Go's own
# and are respected (a cold machine with an empty module cache works: everything comes from the
# proxy by `go mod download`).
#
# How: the released module's source is read-only in GOMODCACHE and has no
# build/version/version.txt (FerretDB's build generates it from git, and its version package
# panics without it), so the source is copied to a scratch dir, version.txt is written, the
# repo's patches/ferretdb/*.patch are applied in name order (each says what it fixes and why),
# and it is built as FerretDB's
# production image does: CGO_ENABLED=0, -trimpath, no build tags (the SQLite backend is pure Go,
# modernc.org/sqlite, and is in the default build; PostgreSQL too).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
VERSION=${TT_FERRETDB_VERSION:-v1.24.2}
MODULE=github.com/FerretDB/FerretDB
DEST=${1:-$ROOT/.stack/lib/ferretdb-${VERSION#v}}
PATCH_DIR=$ROOT/patches/ferretdb

say() { printf '[ferretdb] %s\n' "$*" >&2; }
die() { printf '[ferretdb] error: %s\n' "$*" >&2; exit 1; }

command -v go >/dev/null 2>&1 || die "go is not installed (Go >= 1.24, or any Go that may fetch that toolchain from the proxy)"
command -v patch >/dev/null 2>&1 || die "patch is not installed (apt-get install patch)"

mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd)

# What the binary is built from: version, Go, and every patch's content.
stamp() {
  {
    echo "$MODULE@$VERSION"
    go env GOVERSION
    if compgen -G "$PATCH_DIR/*.patch" >/dev/null; then
      for p in "$PATCH_DIR"/*.patch; do
        echo "${p##*/}"
        sha256sum <"$p"
      done
    fi
  } | sha256sum | cut -d' ' -f1
}

exec 9>"$DEST/.lock"
flock 9
want=$(stamp)
if [[ -x $DEST/ferretdb && -f $DEST/.complete && $(cat "$DEST/.complete") == "$want" ]]; then
  exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ferretdb-build.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
# No go.work or module of a parent dir, no -mod flags of the caller's; no VCS stamping (the copy
# is not a git checkout).
export GOWORK=off GOFLAGS=-buildvcs=false CGO_ENABLED=0

say "downloading $MODULE@$VERSION from the Go module proxy"
# Outside any module, so that nothing but the module itself is resolved here.
dir=$(cd "$work" && go mod download -json "$MODULE@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
[[ -n $dir && -f $dir/go.mod ]] || die "go mod download gave no source dir for $MODULE@$VERSION"

src=$work/src
cp -R "$dir" "$src"
chmod -R u+w "$src"
printf '%s\n' "$VERSION" >"$src/build/version/version.txt"
printf '%s\n' "tickertape-local" >"$src/build/version/package.txt"

if compgen -G "$PATCH_DIR/*.patch" >/dev/null; then
  for p in "$PATCH_DIR"/*.patch; do
    say "applying ${p#"$ROOT"/}"
    patch -s -p1 -d "$src" --no-backup-if-mismatch <"$p" || die "patch ${p##*/} does not apply to $VERSION"
  done
fi

say "downloading its dependencies (go mod download)"
(cd "$src" && go mod download)
say "building (go build ./cmd/ferretdb)"
(cd "$src" && go build -trimpath -o "$work/ferretdb" ./cmd/ferretdb)

got=$("$work/ferretdb" --version 2>&1 | sed -n 's/^version: //p')
[[ $got == "$VERSION" ]] || die "built binary reports version '$got', expected $VERSION"

mv -f "$work/ferretdb" "$DEST/ferretdb"
printf '%s\n' "$want" >"$DEST/.complete"
say "installed $DEST/ferretdb ($VERSION)"
