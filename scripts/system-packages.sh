#!/usr/bin/env bash
# Make sure the Debian packages named as arguments are installed.
# As root, install the missing ones with apt-get; otherwise say exactly what is missing and fail.
set -euo pipefail

missing=()
for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
        || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "Installing system packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    exit 0
fi

echo "Missing system packages: ${missing[*]}" >&2
echo "Install them with: sudo apt-get install ${missing[*]}" >&2
exit 1
