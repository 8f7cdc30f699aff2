#!/usr/bin/env bash
# CI system dependencies for the end-to-end tests of @svc/api.
# Installs Debian's `chromium` (driven by playwright-core through `executablePath`, no browser
# download) only when it is missing. Safe to run repeatedly.
set -euo pipefail

CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"

if [ -x "$CHROMIUM_PATH" ]; then
  echo "chromium present at $CHROMIUM_PATH"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "chromium missing at $CHROMIUM_PATH and apt-get is not available: install chromium by hand" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

echo "installing chromium with apt-get" >&2
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium
"$CHROMIUM_PATH" --version
