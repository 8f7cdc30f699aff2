#!/usr/bin/env bash
# One command to set up and run on a fresh machine:
#   bash scripts/run.sh start   # install, build, start the service on embedded defaults
#   bash scripts/run.sh test    # install, lint, typecheck, run every test (starts local PostgreSQL
#                               # if present, installs Debian's chromium for the browser test)
set -euo pipefail
cd "$(dirname "$0")/.."
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
  # on it: SEC companyfacts snapshots, daily price files, the ECB rate history. Otherwise keep the
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
  echo "run.sh: offline defaults from $shared:" >&2
  echo "  FUNDAMENTALS_PROVIDER=snapshot FUNDAMENTALS_SNAPSHOT_DIR=$FUNDAMENTALS_SNAPSHOT_DIR" >&2
  echo "  QUOTES_PROVIDER=$QUOTES_PROVIDER PRICES_DIR=$PRICES_DIR" >&2
  echo "  FX_PROVIDER=$FX_PROVIDER ECB_FX_FILE=$ECB_FX_FILE" >&2
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
    # Debian's chromium for the developer-page end-to-end test (required under CI).
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
    log=$(mktemp)
    status=0
    pnpm test 2>&1 | tee "$log" || status=$?
    # One closing line over every package's vitest summary ("Tests  12 passed | 1 skipped (13)").
    summary=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E ':test: +Tests +' || true)
    count() { printf '%s\n' "$summary" | awk -v word="$1" '{ for (i = 1; i < NF; i++) if ($(i + 1) == word) s += $i } END { print s + 0 }'; }
    passed=$(count passed)
    failed=$(count failed)
    skipped=$(count skipped)
    rm -f "$log"
    echo "tests: $passed passed, $failed failed, $skipped skipped"
    exit "$status"
    ;;
  *)
    echo "usage: bash scripts/run.sh start|test" >&2
    exit 2
    ;;
esac
