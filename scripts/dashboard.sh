#!/usr/bin/env bash
# Serves the read API and the dashboard over the local stack's rollups (run scripts/demo.sh
# first for data). The token is made once and kept in .stack/api-token; the address printed
# carries it in its fragment, which the page reads and then drops from the address bar.
# Ctrl-C stops the API (SIGINT: it closes cleanly).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/bootstrap.sh

PORT=${API_PORT:-9420}
bash infra/local/stack.sh up
pnpm exec turbo run build --filter=@tickertape/api... --output-logs=errors-only

token_file=.stack/api-token
[[ -s $token_file ]] || node -e 'process.stdout.write(require("crypto").randomBytes(24).toString("base64url"))' >"$token_file"
chmod 600 "$token_file"

echo "dashboard: http://127.0.0.1:$PORT/dashboard/#token=$(cat "$token_file")"
echo "API docs:  http://127.0.0.1:$PORT/docs (token in $token_file)"
API_TOKENS=$(cat "$token_file") HTTP_PORT=$PORT \
  exec bash infra/local/stack.sh exec -- node services/api/dist/main.js
