#!/usr/bin/env bash
# Writes the caching proxy's nginx.conf into STATE_DIR (with its cache and temp directories) and
# prints its path: render.sh STATE_DIR LISTEN UPSTREAM. LISTEN is host:port, UPSTREAM the API's
# host:port. TT_PROXY_CACHE_MAX_SIZE (default 1g) bounds the answers on disk; TT_PROXY_AUTH_TTL_S
# (default 60) is how long an accepted token is remembered. Used by `stack.sh up proxy` and by
# the proxy's integration test, so both run this configuration.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
(($# == 3)) || { echo "usage: render.sh STATE_DIR LISTEN UPSTREAM" >&2; exit 2; }
state=$1 listen=$2 upstream=$3
mkdir -p "$state"/tmp/{body,proxy,fastcgi,uwsgi,scgi} "$state/answers" "$state/tokens"
sed -e "s|@STATE_DIR@|$state|g" -e "s|@LISTEN@|$listen|g" -e "s|@UPSTREAM@|$upstream|g" \
  -e "s|@CACHE_MAX_SIZE@|${TT_PROXY_CACHE_MAX_SIZE:-1g}|g" -e "s|@AUTH_TTL_S@|${TT_PROXY_AUTH_TTL_S:-60}|g" \
  "$here/nginx.conf.template" >"$state/nginx.conf"
echo "$state/nginx.conf"
