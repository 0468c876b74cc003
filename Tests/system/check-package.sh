#!/usr/bin/env bash
# Checks the Debian package udev/build-deb.sh made, without installing it: its files and their
# modes, its control fields (version, architecture, Depends against the libraries the binaries
# really link: ldd, then dpkg -S for the package owning each), the conffile, the units running
# /usr/bin/flywheeld, stripped binaries with no Swift runtime to find, a configuration that
# parses, and an unpacked copy (dpkg -x, run from an empty folder) serving `flywheeld --simulate
# demo` with the demo found beside the binary. Runs lintian --pedantic when it is installed: an error
# or a warning fails (the tags that do not apply are overridden, with reasons, in the package).
#
# Usage: Tests/system/check-package.sh [--lintian-only] PACKAGE.deb
#   --lintian-only   only lintian (the arm64 lane checks the rest inside its arm64 root, where ldd
#                    and dpkg -S answer for arm64, with FLYWHEEL_LINTIAN=skip, and lintian here)
# Ends with "N passed, N failed"; exit status 1 when a check failed.
set -euo pipefail
lintian_only=no
[ "${1:-}" != --lintian-only ] || { lintian_only=yes; shift; }
deb=$(realpath "${1:?usage: check-package.sh [--lintian-only] PACKAGE.deb}")
passed=0
failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }
check() { local name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }

work=$(mktemp -d "${TMPDIR:-/tmp}/flywheel-package-check.XXXXXX")
clean_up() { rm -rf "$work"; }
trap clean_up EXIT
root=$work/root
dpkg-deb -x "$deb" "$root"
dpkg-deb -e "$deb" "$work/control"
field() { dpkg-deb -f "$deb" "$1"; }

if [ "$lintian_only" = no ]; then
# The files, with their modes.
expected="0755 usr/bin/flywheeld
0755 usr/bin/flywheel
0644 usr/share/flywheel/hardware/shuttlexpress.profile
0644 usr/share/flywheel/hardware/powermate.profile
0644 usr/share/flywheel/hardware/ec11.profile
0644 usr/share/flywheel/hardware/scenarios/demo.sim
0644 usr/share/flywheel/hardware/scenarios/shuttle-wrap.sim
0644 usr/lib/udev/rules.d/60-flywheel.rules
0644 usr/lib/modules-load.d/flywheel-keys.conf
0644 usr/lib/systemd/system/flywheeld.service
0644 usr/lib/systemd/system/flywheeld.socket
0644 usr/lib/systemd/system/flywheel-mpd.service
0644 usr/lib/systemd/system/flywheel-osc@.service
0644 usr/lib/systemd/system/flywheel-mqtt@.service
0644 usr/lib/systemd/system/flywheel-alsa@.service
0644 usr/lib/systemd/system/flywheel-keys.service
0644 usr/lib/systemd/system/flywheel-volumio@.service
0644 usr/lib/systemd/system/flywheel-moode@.service
0644 usr/lib/systemd/system/flywheel-midi@.service
0644 usr/lib/systemd/system/flywheel-web.service
0644 usr/lib/systemd/user/flywheel-pipewire.service
0644 usr/share/flywheel/web/flywheel.html
0644 etc/flywheel/flywheel.json5
0644 usr/share/doc/flywheel/Protocol.md
0644 usr/share/doc/flywheel/Daemon.md
0644 usr/share/doc/flywheel/MusicSoftware.md
0644 usr/share/doc/flywheel/Feel.md
0644 usr/share/doc/flywheel/PROFILES.md
0644 usr/share/doc/flywheel/examples/flywheel.json5
0644 usr/share/doc/flywheel/README.md
0644 usr/share/doc/flywheel/RASPBERRY-PI.md
0644 usr/share/doc/flywheel/MUSIC-BOX.md
0644 usr/share/doc/flywheel/copyright
0644 usr/share/doc/flywheel/changelog.Debian.gz
0644 usr/share/man/man8/flywheeld.8.gz
0644 usr/share/man/man1/flywheel.1.gz
0644 usr/share/lintian/overrides/flywheel
0755 DEBIAN/postinst
0755 DEBIAN/prerm
0755 DEBIAN/postrm"
files_present() {
    local mode path ok=0 base
    while read -r mode path; do
        base=$root
        [[ $path == DEBIAN/* ]] && { base=$work/control; path=${path#DEBIAN/}; }
        if ! [ -f "$base/$path" ]; then echo "    missing: $path"; ok=1
        elif [ "$(stat -c %a "$base/$path")" != "${mode#0}" ]; then echo "    $path has mode $(stat -c %a "$base/$path"), not $mode"; ok=1
        fi
    done <<< "$expected"
    [ "$(ls "$root/usr/share/flywheel/hardware/"*.profile | wc -l)" -eq "$(ls hardware/*.profile 2> /dev/null | wc -l)" ] ||
        { [ -d hardware ] && { echo "    not every profile in hardware/ is packaged"; ok=1; }; }
    return $ok
}
check "every file is there with its mode" files_present

# Every link from one installed document to another, or to the example configuration, resolves in
# the installed folder; so does every /usr/share/doc/flywheel/ path --help and the manual pages name.
docs_linked() {
    local document target ok=0 named
    for document in "$root/usr/share/doc/flywheel/"*.md; do
        while read -r target; do
            target=${target%%#*}
            [ -n "$target" ] || continue
            case $target in http*|/*|Tests/*|udev/*|Sources/*|hardware/*|.ci/*|../*) continue ;; esac
            [ -e "$root/usr/share/doc/flywheel/$target" ] || { echo "    $(basename "$document") links to $target, which the package lacks"; ok=1; }
        done < <(grep -o '](\([^)]*\))' "$document" | sed 's/^](//; s/)$//')
    done
    for named in $( { "$root/usr/bin/flywheeld" --help; "$root/usr/bin/flywheel" --help; zcat "$root/usr/share/man/man8/flywheeld.8.gz"; } |
        grep -o '/usr/share/doc/flywheel/[A-Za-z./-]*' | sed 's/[.]$//' | sort -u); do
        [ -e "$root$named" ] || { echo "    $named is named by --help or a manual page, and not installed"; ok=1; }
    done
    return $ok
}
check "the installed documents' links and the paths --help names resolve" docs_linked

owner_root() { [ -z "$(dpkg-deb -c "$deb" | awk '$2 != "root/root"')" ]; }
check "every file belongs to root:root" owner_root

version_matches() {
    local program
    program=$("$root/usr/bin/flywheeld" --version | awk '{ print $2 }')
    [[ $(field Version) == "$program"-* ]] || { echo "    Version $(field Version), flywheeld says $program"; return 1; }
    [ "$(field Package)" = flywheel ] && [ "$(field Architecture)" = "$(dpkg --print-architecture)" ] &&
        [ "$(basename "$deb")" = "flywheel_$(field Version)_$(field Architecture).deb" ]
}
check "Package, Version (flywheeld --version), Architecture and the file name agree" version_matches

# Depends: exactly the packages owning the shared libraries ldd finds, plus passwd (groupadd).
depends_match() {
    local library owners wanted=() listed ok=0 name
    for library in $(ldd "$root/usr/bin/flywheeld" "$root/usr/bin/flywheel" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u); do
        owners=$(dpkg -S "$(realpath "$library")" 2> /dev/null || dpkg -S "$library" 2> /dev/null) ||
            { echo "    no package owns $library"; ok=1; continue; }
        wanted+=("$(cut -d: -f1 <<< "$owners" | head -n 1)")
    done
    listed=$(field Depends | tr ',' '\n' | sed 's/(.*//; s/^ *//; s/ *$//' | sort -u)
    for name in $(printf '%s\n' "${wanted[@]}" passwd | sort -u); do
        grep -qx "$name" <<< "$listed" || { echo "    Depends lacks $name"; ok=1; }
    done
    for name in $listed; do
        printf '%s\n' "${wanted[@]}" passwd | grep -qx "$name" || { echo "    Depends has $name, which no linked library needs"; ok=1; }
    done
    grep -qx libevdev2 <<< "$listed" && grep -qx 'libgpiod[0-9]*' <<< "$listed" || { echo "    Depends: $(field Depends)"; ok=1; }
    # The C++ library is linked in (udev/release-build.sh): the shared one costs 1 MiB of RSS.
    ! grep -q 'libstdc++' <<< "$listed" || { echo "    Depends names the C++ library, which should be linked in"; ok=1; }
    return $ok
}
check "Depends is what ldd and dpkg -S say the binaries need: $(field Depends)" depends_match

no_swift_runtime() { ! ldd "$root/usr/bin/flywheeld" "$root/usr/bin/flywheel" | grep -q 'libswift\|libFoundation\|libdispatch\|not found'; }
check "the Swift runtime is linked in (no libswift*.so, nothing not found)" no_swift_runtime
stripped() { ! readelf -S "$root/usr/bin/flywheeld" "$root/usr/bin/flywheel" | grep -q '\.symtab\|\.debug_'; }
check "the binaries are stripped" stripped
# The ELF machine is the package's architecture's (an arm64 package holds AArch64 code).
elf_machine() {
    local want program machine
    case $(field Architecture) in amd64) want="Advanced Micro Devices X86-64" ;; arm64) want=AArch64 ;; *) want=unknown ;; esac
    for program in flywheeld flywheel; do
        machine=$(readelf -h "$root/usr/bin/$program" | sed -n 's/^ *Machine: *//p')
        [ "$machine" = "$want" ] || { echo "    $program is for $machine, the package for $(field Architecture)"; return 1; }
    done
}
check "the binaries' ELF machine is the package's architecture ($(field Architecture))" elf_machine
conffile() { [ "$(cat "$work/control/conffiles")" = /etc/flywheel/flywheel.json5 ]; }
check "/etc/flywheel/flywheel.json5 is the conffile" conffile
units_use_usr_bin() {
    grep -qx 'ExecStart=/usr/bin/flywheeld' "$root/usr/lib/systemd/system/flywheeld.service" &&
        grep -q '^ExecStart=/usr/bin/flywheel mpd' "$root/usr/lib/systemd/system/flywheel-mpd.service" &&
        grep -q '^ExecStart=/usr/bin/flywheel osc' "$root/usr/lib/systemd/system/flywheel-osc@.service" &&
        grep -q '^ExecStart=/usr/bin/flywheel midi' "$root/usr/lib/systemd/system/flywheel-midi@.service" &&
        grep -q '^ExecStart=/usr/bin/flywheel keys' "$root/usr/lib/systemd/system/flywheel-keys.service" &&
        grep -q '^ExecStart=/usr/bin/flywheel pipewire --socket /run/flywheel/flywheel.sock ' "$root/usr/lib/systemd/user/flywheel-pipewire.service" &&
        grep -q '^ExecStart=/usr/bin/websocketd --address=127.0.0.1 .* --staticdir=/usr/share/flywheel/web /usr/bin/flywheel connect' \
            "$root/usr/lib/systemd/system/flywheel-web.service" &&
        ! grep -rq /usr/local "$root/usr/lib/systemd" "$root/usr/lib/udev"
}
check "the units run /usr/bin/flywheeld and /usr/bin/flywheel (the web feed through websocketd, on loopback)" units_use_usr_bin
scripts_parse() { local s; for s in postinst prerm postrm; do sh -n "$work/control/$s" || return 1; done; }
check "the maintainer scripts parse" scripts_parse
config_parses() { "$root/usr/bin/flywheeld" --check-config --config "$root/etc/flywheel/flywheel.json5" > /dev/null; }
check "the shipped configuration is valid" config_parses

# The unpacked package, run from an empty folder, serves the demo it finds beside its binary.
serves_demo() {
    mkdir "$work/empty"
    # $work/run does not exist: flywheeld makes it. Ready is READY=1 on NOTIFY_SOCKET, not a delay.
    (cd "$work/empty" && env -u FLYWHEEL_HARDWARE python3 - "$root/usr/bin/flywheeld" "$work/run/flywheel.sock" \
        "$root/usr/share/flywheel/hardware/scenarios/demo.sim" "$work/notify" 2> "$work/demo.log") <<'PY'
import json, os, socket, subprocess, sys
daemon, path, demo, notify_path = sys.argv[1:5]
notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
notify.bind(notify_path)
notify.settimeout(30)
process = subprocess.Popen([daemon, "--simulate", "demo", "--no-devices", "--hold-until-clients", "1", "--frames", "0",
                            "--socket", path], env=dict(os.environ, NOTIFY_SOCKET=notify_path))
try:
    if notify.recv(4096) != b"READY=1":
        sys.exit("flywheeld did not say READY=1")
    client = socket.socket(socket.AF_UNIX)
    client.settimeout(30)
    client.connect(path)
    stream = client.makefile("rb")
    served = json.loads(stream.readline())["devices"][0]["path"]
    if os.path.realpath(served) != os.path.realpath(demo):
        sys.exit("the daemon serves %s, not the packaged demo %s" % (served, demo))
    if not any(json.loads(line)["class"] == "tempo" for line in stream):
        sys.exit("no tempo event")
finally:
    process.terminate()
    process.wait(timeout=30)
PY
    local status=$?
    [ $status -eq 0 ] || sed 's/^/    /' "$work/demo.log"
    [ $status -eq 0 ] && [ "$(stat -c %a "$work/run")" = 755 ]
}
check "an unpacked copy serves --simulate demo from its own share/flywheel/hardware" serves_demo

fi

if [ "${FLYWHEEL_LINTIAN:-}" = skip ]; then
    echo "SKIP lintian: FLYWHEEL_LINTIAN=skip (run with --lintian-only elsewhere)"
elif command -v lintian > /dev/null; then
    lintian_clean() {
        lintian --pedantic --display-info "$deb" > "$work/lintian.log" 2>&1 || true
        # The tags that do not apply are overridden, with the reasons, in udev/package/lintian-overrides.
        grep -v 'running with root privileges' "$work/lintian.log" | sed 's/^/    /' | sort | uniq -c | sort -rn | head -n 12
        ! grep -q '^[EW]:' "$work/lintian.log"
    }
    check "lintian --pedantic reports no error or warning" lintian_clean
else
    echo "SKIP lintian: not installed"
fi

echo "package: $(du -k "$deb" | cut -f1) KiB, Installed-Size $(field Installed-Size) KiB, Depends: $(field Depends)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
