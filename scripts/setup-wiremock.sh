#!/usr/bin/env bash
# Installs what the real-WireMock compatibility test (ctest -R web:wiremock-compat) needs:
# Java 17 (Debian openjdk-17-jre-headless) and the npm package `wiremock` 3.13.2, whose
# standalone jar goes to mockserver/web/tests/wiremock/node_modules (git-ignored).
# Idempotent. Without them the test reports SKIPPED (exit 77), never a silent pass.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
package_dir="$here/mockserver/web/tests/wiremock"

apt_install() {
  local sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo_cmd=(sudo)
    else
      echo "setup-wiremock: need root or sudo to install: $*" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$@"
}

missing=()
command -v java >/dev/null 2>&1 || missing+=(openjdk-17-jre-headless)
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup-wiremock: installing ${missing[*]}"
  apt_install "${missing[@]}"
fi

if ls "$package_dir"/node_modules/wiremock/build/wiremock-standalone-*.jar >/dev/null 2>&1; then
  echo "setup-wiremock: wiremock already installed in $package_dir"
  exit 0
fi
echo "setup-wiremock: npm ci in $package_dir"
(cd "$package_dir" && npm ci --no-audit --no-fund --loglevel=error)
ls "$package_dir"/node_modules/wiremock/build/wiremock-standalone-*.jar
