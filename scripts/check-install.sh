#!/bin/sh
# CI: the README's install commands, run for real in this checkout (a clean clone in CI), and the
# Debian package built and installed. Fails when any of them fails or leaves something behind.
#
#   scripts/check-install.sh
#
# Runs as root (CI is root): the system install goes to /usr/local and is removed again, the user
# install to a private home folder, the package is installed with dpkg and removed.
set -eu
cd "$(dirname "$0")/.."
if [ "$(id -u)" -ne 0 ]; then
    echo "scripts/check-install.sh installs into /usr/local and with dpkg: run it as root" >&2
    exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

step() { echo "== $*"; }
fail() { echo "check-install: $*" >&2; exit 1; }

# The files under a folder, one a line, sorted: what an install left behind.
listing() { (cd "$1" && find . \( -type f -o -type l \) | LC_ALL=C sort); }

step "make install PREFIX=/usr DESTDIR=... (staged, as a package would)"
make install PREFIX=/usr DESTDIR="$work/stage"
"$work/stage/usr/bin/shotguard" --version || fail "make install DESTDIR=... wrote no usr/bin/shotguard that runs"
make uninstall PREFIX=/usr DESTDIR="$work/stage"
left=$(listing "$work/stage")
[ -z "$left" ] || fail "make uninstall DESTDIR=... left: $left"

step "make install AUTOSTART=1 (the system, /usr/local)"
before=$(listing /usr/local)
make install AUTOSTART=1
/usr/local/bin/shotguard --version || fail "the installed /usr/local/bin/shotguard does not run"
[ -f /etc/xdg/autostart/shotguard.desktop ] || fail "AUTOSTART=1 installed no /etc/xdg/autostart/shotguard.desktop"
make uninstall AUTOSTART=1
after=$(listing /usr/local)
[ "$before" = "$after" ] || fail "make uninstall left /usr/local changed: $(printf '%s\n%s\n' "$before" "$after" | sort | uniq -u)"
[ ! -e /etc/xdg/autostart/shotguard.desktop ] || fail "make uninstall left /etc/xdg/autostart/shotguard.desktop"

step "make install PREFIX=~/.local AUTOSTART=1 (one user), enabled, then make uninstall"
home="$work/home"
mkdir -p "$home"
# The prefix as an interactive shell passes it (bash expands ~ there; sh would pass it to make
# as it is, which the Makefile expands): the same folder whichever shell runs this script.
env -u XDG_CONFIG_HOME HOME="$home" make install PREFIX="$home/.local" AUTOSTART=1
"$home/.local/bin/shotguard" --version || fail "the user install's binary does not run"
# What 'systemctl --user enable shotguard.service' makes: uninstall must not leave it dangling.
mkdir -p "$home/.config/systemd/user/graphical-session.target.wants"
ln -s "$home/.local/share/systemd/user/shotguard.service" \
    "$home/.config/systemd/user/graphical-session.target.wants/shotguard.service"
env -u XDG_CONFIG_HOME HOME="$home" make uninstall PREFIX="$home/.local" AUTOSTART=1
# The build itself keeps its caches in ~/.cache (SwiftPM's manifests, clang's modules), as it
# does for anyone who builds: they are the toolchain's, not what install wrote.
left=$(listing "$home" | grep -v '^\./\.cache/' || true)
[ -z "$left" ] || fail "make uninstall PREFIX=~/.local left: $left"

step "dpkg-buildpackage -us -uc -b, then dpkg -i and dpkg -r"
# The package builds in a copy: it writes its .deb beside the source folder.
command -v dh >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debhelper >/dev/null
mkdir "$work/package"
git ls-files -z | tar --null -T - -cf - | (mkdir "$work/package/shotguard" && tar -xf - -C "$work/package/shotguard")
(cd "$work/package/shotguard" && dpkg-buildpackage -us -uc -b)
deb=$(ls "$work"/package/shotguard_*_*.deb | grep -v dbgsym | head -n 1)
[ -f "$deb" ] || fail "dpkg-buildpackage made no .deb"
dpkg-deb -f "$deb" Recommends | grep -q tesseract-ocr-eng || fail "the package does not recommend tesseract-ocr-eng"
dpkg -i "$deb"
/usr/bin/shotguard --version || fail "the package's /usr/bin/shotguard does not run"
man -w shotguard >/dev/null 2>&1 || [ -f /usr/share/man/man1/shotguard.1.gz ] || fail "the package installed no man page"
dpkg -r shotguard
[ ! -e /usr/bin/shotguard ] || fail "dpkg -r left /usr/bin/shotguard"
echo "check-install: every install command of the README works, and the package builds, installs and goes"
