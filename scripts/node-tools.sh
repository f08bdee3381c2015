#!/usr/bin/env bash
# Make sure Node.js 18.18 or newer and npm are on the PATH: the phone's scripts are linted and
# unit-tested with them. As root, install Debian's when there is no Node.js; otherwise say
# exactly what is missing and fail.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v node >/dev/null; then
    scripts/system-packages.sh nodejs npm
fi
if ! command -v npm >/dev/null; then
    echo "Node.js is here, but npm is not: install npm (sudo apt-get install npm)." >&2
    exit 1
fi
if ! node -e '
    const [major, minor] = process.versions.node.split(".").map(Number);
    process.exit(major > 18 || (major === 18 && minor >= 18) ? 0 : 1);'; then
    echo "Node.js $(node --version) is too old: the scripts' tests need 18.18 or newer." >&2
    exit 1
fi
