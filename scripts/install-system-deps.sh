#!/usr/bin/env bash
# The system packages pos-agent uses, in one place.
#
#   scripts/install-system-deps.sh            install everything (build, run, test) with apt
#   scripts/install-system-deps.sh build run  install only those groups
#   scripts/install-system-deps.sh --list     print the packages for this OS and install nothing
#
# Groups:
#   build  compilers and headers for the native modules: better-sqlite3 and keytar compile from
#          source when no prebuilt binary can be downloaded; keytar needs libsecret's headers.
#   run    the OS keychain in production: a Secret Service (gnome-keyring) on a D-Bus session.
#   test   what the full test suite drives for real: socat (pseudo-terminal pairs for the serial
#          tests), Chromium (the cashier UI tests), nats-server (the store's JetStream server),
#          prometheus (promtool for the alert rules) and tshark (Wireshark's ZVT dissector reads every
#          ZVT message the agent sends in the tests); dbus-run-session comes with dbus.
#   store  the store's back-office machine (docs/store.md): nats-server, and prometheus for the fleet.
#
# Debian and Ubuntu are installed with apt (as root, or through sudo). Other systems get the list
# of what to install. `npm install` never runs this: installing system packages is the machine
# owner's decision.
set -euo pipefail

declare -A DEBIAN=(
  [build]="python3 make g++ pkg-config libsecret-1-dev"
  [run]="gnome-keyring dbus libsecret-1-0"
  [test]="socat chromium dbus nats-server prometheus tshark"
  [store]="nats-server prometheus"
)
declare -A FEDORA=(
  [build]="python3 make gcc-c++ pkgconf-pkg-config libsecret-devel"
  [run]="gnome-keyring dbus-daemon libsecret"
  [test]="socat chromium dbus-daemon nats-server prometheus wireshark-cli"
  [store]="nats-server prometheus"
)
MACOS_NOTE="macOS: \`xcode-select --install\` (compiler for the native modules); the Keychain is built in;
  for the tests: \`brew install socat\` and Chromium (set its path in test/e2e/harness.ts if not /usr/bin/chromium)."

list_only=false
groups=()
for arg in "$@"; do
  case "$arg" in
    --list) list_only=true ;;
    build | run | test | store) groups+=("$arg") ;;
    -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "unknown argument: $arg (groups: build run test store; --list)" >&2; exit 2 ;;
  esac
done
[ ${#groups[@]} -gt 0 ] || groups=(build run test)

os_id=""
os_like=""
if [ -r /etc/os-release ]; then
  # shellcheck disable=SC1091
  . /etc/os-release
  os_id="${ID:-}"
  os_like="${ID_LIKE:-}"
fi
family="other"
case " $os_id $os_like " in
  *" debian "* | *" ubuntu "*) family="debian" ;;
  *" fedora "* | *" rhel "* | *" centos "*) family="fedora" ;;
esac
[ "$(uname -s)" = "Darwin" ] && family="macos"

packages_of() {
  local -n table=$1
  local out=()
  for g in "${groups[@]}"; do
    for p in ${table[$g]}; do
      [[ " ${out[*]-} " == *" $p "* ]] || out+=("$p")
    done
  done
  echo "${out[*]}"
}

case "$family" in
  debian)
    wanted=$(packages_of DEBIAN)
    if [ "$os_id" = "ubuntu" ]; then
      # Ubuntu ships Chromium only as a snap; the UI tests look for /usr/bin/chromium.
      wanted="${wanted//chromium/}"
      echo "[system] Ubuntu: install Chromium with \`sudo snap install chromium\` and link it to /usr/bin/chromium for the UI tests." >&2
    fi
    ;;
  fedora)
    echo "Fedora and RHEL: sudo dnf install $(packages_of FEDORA)"
    exit 0
    ;;
  macos)
    echo "$MACOS_NOTE"
    exit 0
    ;;
  *)
    echo "Unrecognised system (${os_id:-unknown}). Install the equivalents of the Debian packages: $(packages_of DEBIAN)"
    exit 0
    ;;
esac

missing=()
for p in $wanted; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if $list_only; then
  echo "$wanted"
  [ ${#missing[@]} -eq 0 ] || echo "not installed yet: ${missing[*]}"
  exit 0
fi
if [ ${#missing[@]} -eq 0 ]; then
  echo "[system] already installed: $wanted"
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "[system] run as root or install sudo: apt-get install ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "[system] installing: ${missing[*]}"
"${sudo[@]}" apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
