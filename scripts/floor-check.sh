#!/usr/bin/env bash
# The supported floor, Node.js 22.12 (package.json "engines"): bring that exact Node from the npm
# registry into .tools/, build every package with it (no turbo cache) and start the service on
# embedded defaults (PGlite in a temporary folder, no API key), then ask /healthz and /api/docs.
# Run by `bash scripts/run.sh test` when CI is set; by hand: bash scripts/floor-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
FLOOR=22.12.0
dir="$(pwd)/.tools/node$FLOOR"
if [ ! -x "$dir/node_modules/node/bin/node" ]; then
  echo "floor-check: installing Node.js $FLOOR from the npm registry into $dir" >&2
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund "node@$FLOOR" >/dev/null
fi
export PATH="$dir/node_modules/node/bin:$PATH"
hash -r
[ "$(node --version)" = "v$FLOOR" ] || { echo "floor-check: node is $(node --version), not v$FLOOR" >&2; exit 1; }
echo "floor-check: building on $(node --version)" >&2
pnpm exec turbo run build --filter=@svc/api... --force --output-logs=errors-only
data=$(mktemp -d)
port=$(node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
log="$data/server.log"
( cd apps/api && DATA_DIR="$data" PORT="$port" HOST=127.0.0.1 LOG_LEVEL=warn exec node dist/server.js ) >"$log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$data"; }
trap cleanup EXIT
ok=""
for _ in $(seq 1 60); do
  if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then ok=1; break; fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 1
done
if [ -z "$ok" ]; then
  echo "floor-check: the service did not answer /healthz on Node $FLOOR" >&2
  cat "$log" >&2
  exit 1
fi
curl -fsS "http://127.0.0.1:$port/openapi.json" >/dev/null
echo "floor-check: Node $FLOOR built and started the service; /healthz and the API document answer" >&2
