#!/usr/bin/env bash
# One command to set up and run on a fresh machine:
#   bash scripts/run.sh start   # install, build, start the service on embedded defaults
#   bash scripts/run.sh test    # install, lint, typecheck, run every test (starts local PostgreSQL
#                               # if present, installs Debian's chromium for the browser tests)
set -euo pipefail
cd "$(dirname "$0")/.."

# The project's runtime is Node.js 24 LTS; the floor is 22.12 (package.json "engines"). On a
# machine whose Node is older, bring Node 24 from the npm registry (the `node` package installs
# the official binary) into .tools/ of the checkout and put it first on PATH for everything this
# script runs. A developer's shell gets the same Node with: eval "$(bash scripts/run.sh env)"
NODE_MAJOR_WANTED=24
node_ok() { # $1: a node binary; true when it is at least 22.12
  "$1" -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 12) ? 0 : 1)' 2>/dev/null
}
install_node() { # $1: a version or range of the npm package `node`; $2: the folder
  if [ ! -x "$2/node_modules/node/bin/node" ]; then
    echo "run.sh: installing Node.js $1 from the npm registry into $2" >&2
    mkdir -p "$2"
    npm install --prefix "$2" --no-save --no-package-lock --no-audit --no-fund "node@$1" >/dev/null
  fi
  "$2/node_modules/node/bin/node" --version >/dev/null
}
ensure_node() {
  if command -v node >/dev/null 2>&1 && node_ok node; then return 0; fi
  local dir
  dir="$(pwd)/.tools/node$NODE_MAJOR_WANTED"
  install_node "$NODE_MAJOR_WANTED" "$dir"
  export PATH="$dir/node_modules/node/bin:$PATH"
  hash -r
}
ensure_node

PNPM_VERSION=$(node -p "require('./package.json').packageManager.split('@')[1]")

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "installing pnpm@$PNPM_VERSION with npm" >&2
  npm install -g "pnpm@$PNPM_VERSION" >/dev/null 2>&1 || {
    echo "global install failed; using npx pnpm@$PNPM_VERSION" >&2
    pnpm() { npx --yes "pnpm@$PNPM_VERSION" "$@"; }
  }
fi

ensure_postgres() {
  # Storage tests run against a real PostgreSQL at 127.0.0.1:5432 when one is installed here.
  if [ -n "${TEST_DATABASE_URL:-}" ] || ! command -v pg_ctlcluster >/dev/null 2>&1; then return 0; fi
  if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
    version=$(ls /etc/postgresql | head -n 1)
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
  fi
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:5432/test"
}

offline_defaults() {
  # With no fundamentals provider chosen and the shared real data beside the checkout, run offline
  # on it: SEC companyfacts snapshots, daily price files, the ECB rate history, instruments from
  # the bundled resolver file (OPENFIGI_URL=off). Otherwise keep the
  # CONTRACT defaults (sec-edgar, which needs SEC_USER_AGENT; no quotes; live ECB rates).
  local shared
  shared="$(cd .. && pwd)/shared/data"
  if [ -n "${FUNDAMENTALS_PROVIDER:-}" ] || [ ! -d "$shared" ]; then
    echo "run.sh: FUNDAMENTALS_PROVIDER=${FUNDAMENTALS_PROVIDER:-sec-edgar (default)}; keeping the configured/CONTRACT defaults" >&2
    return 0
  fi
  export FUNDAMENTALS_PROVIDER=snapshot
  export FUNDAMENTALS_SNAPSHOT_DIR="$shared/fundamentals/raw/companyfacts"
  export QUOTES_PROVIDER="${QUOTES_PROVIDER:-csv}"
  export PRICES_DIR="${PRICES_DIR:-$shared/prices}"
  export FX_PROVIDER="${FX_PROVIDER:-ecb-file}"
  export ECB_FX_FILE="${ECB_FX_FILE:-$shared/fx/eurofxref-hist.csv}"
  # instruments resolve from the bundled resolver file, not OpenFIGI's web service
  export OPENFIGI_URL="${OPENFIGI_URL:-off}"
  echo "run.sh: offline defaults from $shared:" >&2
  echo "  FUNDAMENTALS_PROVIDER=snapshot FUNDAMENTALS_SNAPSHOT_DIR=$FUNDAMENTALS_SNAPSHOT_DIR" >&2
  echo "  QUOTES_PROVIDER=$QUOTES_PROVIDER PRICES_DIR=$PRICES_DIR" >&2
  echo "  FX_PROVIDER=$FX_PROVIDER ECB_FX_FILE=$ECB_FX_FILE" >&2
  echo "  OPENFIGI_URL=$OPENFIGI_URL" >&2
}

case "${1:-}" in
  start)
    pnpm install --frozen-lockfile
    # The embedded database lives in ./.data of the checkout (pnpm runs the server in apps/api).
    export DATA_DIR="${DATA_DIR:-$(pwd)/.data}"
    offline_defaults
    pnpm start
    ;;
  test)
    pnpm install --frozen-lockfile
    ensure_postgres
    # Debian's chromium for the browser end-to-end tests (the developer page, the moat card page
    # and MCP App; required under CI).
    if ! bash scripts/ci-deps.sh; then
      if [ -n "${CI:-}" ]; then exit 1; fi
      echo "run.sh: chromium unavailable; the browser end-to-end test will be skipped" >&2
    fi
    pnpm lint
    # unused files, dependencies and exports (knip.json); the README's dependency graph is
    # current and no app depends on another app
    pnpm knip
    node scripts/dep-graph.mjs --check
    # the pending changesets make a release plan (what `changeset version` needs)
    node scripts/check-changesets.mjs
    pnpm typecheck
    # the README's generated blocks (configuration table, …) are current; read from the built
    # packages, so build first (turbo's cache makes the tests' own build free)
    pnpm build --output-logs=errors-only
    node scripts/generated-docs.mjs --check
    log=$(mktemp)
    status=0
    pnpm test 2>&1 | tee "$log" || status=$?
    # One closing line over every package's vitest summary: failed tests, failed test files (a
    # file that never ran: import error, hook timeout) and errors; a non-zero exit that no count
    # explains is named, never printed as "0 failed" (scripts/test-summary.mjs).
    line=$(node scripts/test-summary.mjs "$log" "$status") || status=$?
    [ -n "$line" ] || line="tests: no summary could be read — FAILED (exit $status)"
    rm -f "$log"
    if [ "$status" -eq 0 ] && [ -n "${CI:-}" ]; then
      # The floor: build and start the service on Node 22.12 too (scripts/floor-check.sh).
      bash scripts/floor-check.sh || { status=$?; line="$line — FAILED: the Node 22.12 floor check (exit $status)"; }
    fi
    echo "$line"
    exit "$status"
    ;;
  env)
    # For a developer's shell: eval "$(bash scripts/run.sh env)" puts the same Node first on PATH.
    echo "export PATH=\"$(dirname "$(command -v node)"):\$PATH\""
    ;;
  *)
    echo "usage: bash scripts/run.sh start|test|env" >&2
    exit 2
    ;;
esac
