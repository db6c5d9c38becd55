#!/usr/bin/env bash
# Installs every Debian 12 package that building and testing webdata needs. Idempotent: only
# missing packages are installed. Run as root, or as a user with sudo.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git curl ca-certificates
  libcurl4-openssl-dev   # SDK transport, mock live fetching
  libssl-dev             # HMAC for webhook signatures
  nlohmann-json3-dev     # JSON everywhere
  libboost-dev           # Boost.Beast: the mock's HTTP/WebSocket layer
  libvalijson-dev        # JSON Schema validation
  libgumbo-dev           # HTML parsing in the content pipeline
  libpoppler-cpp-dev     # PDF text for the mock's pdf parser
  zlib1g-dev             # PNG screenshots, gzip-compressed sitemaps
  libsqlite3-dev         # job persistence in the mock
  libpugixml-dev         # sitemaps (XML) in the mock's crawler and map
  libcli11-dev           # webdata-mock's command line
  catch2                 # tests (Catch2 2.13)
  doxygen                # SDK reference (the 'docs' target; a test checks it has no warnings)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo_cmd=(sudo)
  else
    echo "setup: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: done"
