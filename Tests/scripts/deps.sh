# Sourced by the other scripts: installs the C libraries' development packages Flywheel builds
# against (libevdev, libgpiod 1.6, pkg-config) when they are missing, with sudo when not root.
flywheel_install() {
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "Installing ${missing[*]} ..." >&2
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
}
flywheel_install libevdev-dev libgpiod-dev pkg-config
