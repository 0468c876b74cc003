#!/usr/bin/env bash
# Builds Flywheel's Debian package for this machine's architecture (amd64 here, arm64 on a 64-bit
# Raspberry Pi OS or any arm64 Debian): a release build with the Swift runtime linked statically,
# stripped, so the package needs no Swift toolchain; its Depends come from the shared libraries the
# binaries link (dpkg-shlibdeps), so they are right on each Debian release (libgpiod2 on Debian 12).
#
# Usage: udev/build-deb.sh [--no-build] [--output DIR] [--scratch-path DIR]
#   --no-build    package the release build already made (udev/release-build.sh)
#   --output DIR  where the .deb goes (default .build/deb); its path is the last line printed
#   --scratch-path DIR  SwiftPM's build folder (default .build; another release's toolchain needs its own)
# Needs: Swift 6 (and the C++ library's archive, libstdc++-N-dev, which it brings), libevdev-dev, libgpiod-dev, pkg-config, dpkg-dev (dpkg-shlibdeps), binutils (strip).
#
# What it installs:
#   /usr/bin/flywheeld, /usr/bin/flywheel
#   /usr/share/flywheel/hardware/          profiles, scenarios, the encoder overlay
#   /usr/lib/udev/rules.d/60-flywheel.rules  (also /dev/uinput for the uinput group)
#   /usr/lib/modules-load.d/flywheel-keys.conf  the uinput module, loaded at boot
#   /usr/lib/systemd/system/               flywheeld.service, flywheeld.socket, and the bridges' units:
#                                          flywheel-mpd.service, flywheel-osc@.service, flywheel-midi@.service, flywheel-mqtt@.service, flywheel-alsa@.service,
#                                          flywheel-keys.service, flywheel-volumio@.service, flywheel-moode@.service,
#                                          flywheel-web.service (websocketd and flywheel connect, on loopback)
#   /usr/lib/systemd/user/flywheel-pipewire.service   a user unit (PipeWire runs as the logged-in user), left disabled
#   /usr/share/flywheel/web/flywheel.html  the example page flywheel-web.service serves
#   /etc/flywheel/flywheel.json5           a conffile, every setting commented out
#   /usr/share/doc/flywheel/               the README, the DocC catalogs' documents (the protocol, the configuration, the bridges' guide, the
#                                          feel, …), the Raspberry Pi guide and its overlay, the music-box recipe, profiles' format, the example
#                                          configuration, copyright, changelog
#   /usr/share/man/, /usr/share/lintian/overrides/flywheel (the tags that do not apply, with reasons)
# and the maintainer scripts in udev/package/ (the gpio and uinput groups, udev reload, the socket enabled).
set -euo pipefail

# The protocol document, found under Sources/ when empty (wherever it lives, a DocC catalog included).
PROTOCOL_DOC=${FLYWHEEL_PROTOCOL_DOC:-}
MAINTAINER=${FLYWHEEL_MAINTAINER:-Flywheel developers <flywheel@example.org>}
# The package's revision of the program's version: flywheel_VERSION-REVISION_ARCH.deb.
REVISION=${FLYWHEEL_DEB_REVISION:-1}
# The licence: the Apache License 2.0 (udev/LICENSE, the licence of Swift and swift-nio); Debian
# ships its text in /usr/share/common-licenses, which the copyright file points to.
LICENSE_NAME=Apache-2.0

cd "$(dirname "$0")/.."
build=yes
output=.build/deb
scratch=()
while [ $# -gt 0 ]; do
    case $1 in
        --no-build) build=no; shift ;;
        --output) [ $# -ge 2 ] || { echo "build-deb: --output needs a folder" >&2; exit 2; }; output=$2; shift 2 ;;
        --scratch-path) [ $# -ge 2 ] || { echo "build-deb: --scratch-path needs a folder" >&2; exit 2; }; scratch=(--scratch-path "$2"); shift 2 ;;
        *) echo "usage: udev/build-deb.sh [--no-build] [--output DIR] [--scratch-path DIR]" >&2; exit 2 ;;
    esac
done
say() { echo "build-deb: $*" >&2; }
die() { say "$*"; exit 1; }
for tool in dpkg-shlibdeps dpkg-deb strip gzip; do
    command -v "$tool" > /dev/null || die "$tool is missing (apt-get install dpkg-dev binutils gzip)"
done
umask 022
# The release build as udev/release-build.sh makes it (the Swift runtime and the C++ library linked
# statically, full RELRO).
products=()
if [ "$build" = yes ]; then
    products=(flywheeld flywheel)
    say "udev/release-build.sh ${products[*]}"
fi
bin=$(bash udev/release-build.sh "${scratch[@]}" "${products[@]}" | tail -n 1)
for program in flywheeld flywheel; do
    [ -x "$bin/$program" ] || die "$bin/$program is not built (run without --no-build)"
done

if [ -z "$PROTOCOL_DOC" ]; then
    PROTOCOL_DOC=$(find Sources -iname 'PROTOCOL.md' -print | sort | head -n 1)
fi
[ -n "$PROTOCOL_DOC" ] && [ -f "$PROTOCOL_DOC" ] ||
    die "the protocol document (PROTOCOL.md) was not found under Sources/; set FLYWHEEL_PROTOCOL_DOC"

upstream=$("$bin/flywheeld" --version | awk '{ print $2 }')
[[ $upstream =~ ^[0-9][0-9A-Za-z.+~]*$ ]] || die "flywheeld --version gave no usable version: '$upstream'"
version=$upstream-$REVISION
arch=$(dpkg --print-architecture)
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2> /dev/null || date +%s)}
commit=$(git rev-parse --short HEAD 2> /dev/null || echo unknown)

mkdir -p "$output"
work=$(mktemp -d "${TMPDIR:-/tmp}/flywheel-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
doc=$root/usr/share/doc/flywheel
hardware=$root/usr/share/flywheel/hardware

install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" "$root/usr/share/man/man8" "$hardware/scenarios" "$root/usr/lib/udev/rules.d" \
    "$root/usr/lib/modules-load.d" \
    "$root/usr/share/flywheel/web" \
    "$root/usr/lib/systemd/system" "$root/usr/lib/systemd/user" "$root/etc/flywheel" "$doc"
for program in flywheeld flywheel; do
    install -m 0755 "$bin/$program" "$root/usr/bin/$program"
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/$program"
done
install -m 0644 hardware/*.profile hardware/*.dts "$hardware/"
install -m 0644 hardware/scenarios/*.sim "$hardware/scenarios/"
install -m 0644 udev/60-flywheel.rules "$root/usr/lib/udev/rules.d/"
install -m 0644 udev/flywheel-keys.conf "$root/usr/lib/modules-load.d/"
install -m 0644 udev/flywheeld.service udev/flywheeld.socket udev/flywheel-mpd.service udev/flywheel-osc@.service \
    udev/flywheel-midi@.service udev/flywheel-mqtt@.service udev/flywheel-alsa@.service udev/flywheel-keys.service \
    udev/flywheel-volumio@.service udev/flywheel-moode@.service udev/flywheel-web.service "$root/usr/lib/systemd/system/"
install -m 0644 udev/flywheel-pipewire.service "$root/usr/lib/systemd/user/"
install -m 0644 udev/web/flywheel.html "$root/usr/share/flywheel/web/"
install -m 0644 udev/flywheel.json5 "$root/etc/flywheel/flywheel.json5"
# The documents, under the names the README, the guides, the manual pages and --help use, their
# links to one another rewritten to the installed files (a link into the source tree, such as
# Tests/, stays as it is: it names the repository). The example configuration, pristine, beside them.
install -m 0644 README.md "$doc/README.md"
install -m 0644 "$PROTOCOL_DOC" "$doc/Protocol.md"
install -m 0644 hardware/RASPBERRY-PI.md hardware/MUSIC-BOX.md hardware/PROFILES.md "$doc/"
for catalog_doc in $(find Sources -path '*.docc/*.md' ! -iname 'PROTOCOL.md' | sort); do
    install -m 0644 "$catalog_doc" "$doc/"
done
install -m 0644 hardware/*.dts "$doc/"   # the overlay RASPBERRY-PI.md links to
install -D -m 0644 udev/flywheel.json5 "$doc/examples/flywheel.json5"
for installed in "$doc"/*.md; do
    sed -i -E \
        -e 's#\]\((\.\./)*Sources/[A-Za-z]+/[A-Za-z]+\.docc/([A-Za-z]+\.md)#](\2#g' \
        -e 's#\]\((\.\./)*hardware/([A-Z-]+\.md)#](\2#g' \
        -e 's#\]\((\.\./)*README\.md#](README.md#g' \
        -e 's#\]\((\.\./)*udev/flywheel\.json5\)#](examples/flywheel.json5)#g' \
        "$installed"
done
install -D -m 0644 udev/package/lintian-overrides "$root/usr/share/lintian/overrides/flywheel"

cat > "$doc/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: flywheel

Files: *
Copyright: $(date -u -d "@$epoch" +%Y) the Flywheel authors
License: $LICENSE_NAME

License: $LICENSE_NAME
 Licensed under the Apache License, Version 2.0 (the "License"); you may not use
 this software except in compliance with the License. Unless required by
 applicable law or agreed to in writing, software distributed under the License
 is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
 KIND, either express or implied.
 .
 On Debian systems, the full text of the Apache License, Version 2.0 can be
 found in the file /usr/share/common-licenses/Apache-2.0.
COPYRIGHT
{
    echo "flywheel ($version) unstable; urgency=medium"
    echo
    echo "  * Built from the Flywheel source tree, commit $commit."
    echo
    echo " -- $MAINTAINER  $(date -u -R -d "@$epoch")"
} | gzip -9n > "$doc/changelog.Debian.gz"
touch -d "@$epoch" "$doc/changelog.Debian.gz"

# Manual pages: each program's --help, verbatim.
manual() {
    local program=$1 section=$2 summary=$3
    {
        echo ".TH ${program^^} $section \"$(date -u -d "@$epoch" +%Y-%m-%d)\" \"flywheel $upstream\""
        echo ".SH NAME"
        echo "$program \\- $summary"
        echo ".SH DESCRIPTION"
        echo ".nf"
        "$bin/$program" --help | sed -e 's/\\/\\e/g' -e 's/^[.'"'"']/\\\&&/'
        echo ".fi"
        echo ".SH SEE ALSO"
        echo "/usr/share/doc/flywheel/README.md, /usr/share/doc/flywheel/Protocol.md, /usr/share/doc/flywheel/Daemon.md"
    } | gzip -9n > "$root/usr/share/man/man$section/$program.$section.gz"
}
manual flywheeld 8 "serves tempo and scrub events from knobs, jog wheels and touch panels"
manual flywheel 1 "knobs, jog wheels and touch panels with physical feel"

install -m 0755 udev/package/postinst udev/package/prerm udev/package/postrm "$root/DEBIAN/"
echo /etc/flywheel/flywheel.json5 > "$root/DEBIAN/conffiles"

# Depends: the packages whose shared libraries the binaries link, with the versions their symbols need.
mkdir -p "$work/shlibs/debian"
printf 'Source: flywheel\n\nPackage: flywheel\nArchitecture: any\n' > "$work/shlibs/debian/control"
shlibs=$(cd "$work/shlibs" && dpkg-shlibdeps -O "$root/usr/bin/flywheeld" "$root/usr/bin/flywheel" 2> "$work/shlibdeps.log") ||
    { cat "$work/shlibdeps.log" >&2; die "dpkg-shlibdeps failed"; }
depends=${shlibs#shlibs:Depends=}
[ -n "$depends" ] && [ "$depends" != "$shlibs" ] || die "dpkg-shlibdeps gave no Depends: '$shlibs'"
# groupadd and groupdel (the gpio and uinput groups) are in passwd.
depends="$depends, passwd"

installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: flywheel
Version: $version
Architecture: $arch
Maintainer: $MAINTAINER
Installed-Size: $installed_size
Depends: $depends
Recommends: systemd, udev
Suggests: mpd, websocketd
Section: sound
Priority: optional
Description: knobs and jog wheels with physical feel, as tempo and scrub events
 flywheeld reads rotary encoders on GPIO pins, USB jog wheels and knobs
 (Griffin PowerMate, Contour ShuttleXpress and ShuttlePRO, Surface Dial) and
 touch panels, gives their motion physical feel (inertia after a flick,
 springy detents) and serves it as tempo and scrub events on a Unix socket
 for players, displays and metronomes.
 .
 This package holds the daemon and the flywheel tool, device profiles, udev
 rules that give the service access to the devices and start it when one is
 plugged in, and systemd units: flywheeld.socket is enabled on installation;
 the bridges' units are left for the administrator to enable:
 flywheel-mpd.service (MPD), flywheel-osc@HOST:PORT (OSC),
 flywheel-midi@PORT (MIDI), flywheel-mqtt@HOST:PORT (MQTT and Home
 Assistant), flywheel-alsa@CARD (a sound card's mixer), flywheel-keys.service
 (a virtual keyboard, through uinput), flywheel-volumio@HOST and
 flywheel-moode@HOST (the volume of a Volumio or moOde player) and
 flywheel-web.service (a WebSocket feed and
 page for web UIs on loopback, with websocketd); flywheel-pipewire.service
 is a user unit, for a user's PipeWire (systemctl --user enable --now
 flywheel-pipewire).
CONTROL
(cd "$root" && find . -type f ! -path './DEBIAN/*' ! -path './etc/*' -printf '%P\0' | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
find "$root" -exec touch -h -d "@$epoch" {} +

deb=$output/flywheel_${version}_${arch}.deb
rm -f "$output"/flywheel_*_"$arch".deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" > /dev/null
say "$(du -h "$deb" | cut -f1) $deb (Depends: $depends)"
echo "$deb"
