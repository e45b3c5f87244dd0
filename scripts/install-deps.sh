#!/bin/sh
# Installs the Debian packages shotguard needs to build, test, run the demo and bench.
#
#   scripts/install-deps.sh [--check] [build|all]
#
# build: what compiling and linking need (make build, make release, make install, the .deb);
# all (the default): also what the tests, the demo and the bench run. Installs only what is
# missing (apt-get as root, sudo otherwise), and when nothing is missing it is one dpkg-query
# call and prints nothing. --check installs nothing: it names what is missing and fails.
set -eu
# libsystemd-dev: sd-bus's header, for the agent's session-bus service, its client and
# notifications (libsystemd itself is loaded at run time, never linked).
# libxtst-dev (RECORD) and libxres-dev (X-Resource) let the agent see who reads the screen (their
# headers: the libraries are loaded at run time, never linked);
# libxcb-shape0-dev: the window list asks SHAPE whether windows are shaped, in its XCB batch.
# libxcomposite-dev: the shield names a compositing manager's overlay window (Composite's header:
# libXcomposite itself is loaded when the shield first meets a compositing manager, never linked).
# libcurl4-openssl-dev: libcurl's headers for the reporters' uploads (libcurl itself is loaded at
# the first upload, never linked).
# libgif-dev: GIF screenshots read and rewritten (giflib, linked); libtiff-dev and libavif-dev:
# TIFF and AVIF ones (their headers: libtiff and libavif are loaded at run time, never linked).
build="pkg-config libx11-dev libx11-xcb-dev libxcb-shape0-dev libxext-dev libxfixes-dev libxrandr-dev libxi-dev libxtst-dev libxres-dev
  libxcomposite-dev libpng-dev zlib1g-dev libpcre2-dev libturbojpeg0-dev libwebp-dev libdeflate-dev libsystemd-dev libcurl4-openssl-dev libgif-dev libtiff-dev libavif-dev"
# libatspi2.0-0 is loaded at run time by field rules (never linked); libatspi2.0-dev is only for
# the test that checks shotguard's copy of its constants and layouts against the real headers.
# dbus-daemon gives the bus tests a private session bus; systemd has busctl (and
# systemd-analyze for the unit); libglib2.0-bin has gdbus; python3-gi with gir1.2-glib-2.0 runs
# the fake notification server and user manager of Tests/Scripts; desktop-file-utils checks the
# autostart entry; make, file and binutils (strip) the install tests; dpkg-dev reads
# debian/changelog. x11-apps (xwd) and ffmpeg (x11grab) are screen readers the tests watch
# being seen. dbus-x11 (dbus-launch): a test checks that field rules start no session bus by
# autolaunch. dunst, libnotify-bin: a real notification daemon and notify-send for the
# window-type tests.
# Clipboard managers and the GTK tools that hand their image to one as they exit (guard's
# clipboard tests): xfce4-settings has xfsettingsd (CLIPBOARD_MANAGER), parcellite a history
# without it; gnome-screenshot, xfce4-screenshooter and mate-utils (mate-screenshot) copy with -c.
# Text rules: libtesseract5 is loaded at run time by their OCR (never linked) with its English
# model (tesseract-ocr-eng); libtesseract-dev is only for the test that checks shotguard's copy of
# its C constants, tesseract-ocr for the bench's command-line peer. python3-pil and the font
# packages make the text rules' test corpus (scripts/text-corpus.py, and the fresh corpora of
# scripts/text-recall.py): DejaVu, Liberation and Noto Mono, and fonts nobody tuned the pass to:
# Cantarell (GNOME's interface font), Arimo, Tinos and Cousine (fonts-croscore, metric twins of
# Arial, Times and Courier), Open Sans (web pages) and Hack (terminals and editors). xterm: a real
# terminal showing an API key, for guard's text pass. trayer: a real XEmbed system tray (GTK) for
# the tray icon's tests.
# Reporters: libcurl4 is loaded by the uploads to the tests' local HTTP server; zenity is the
# dialog of --report-ask's "Report this screenshot…".
# Screen sharing: the tests build their own screen reader (Tests/Scripts/screen-reader.c) with cc,
# which reads the screen as browsers (a shared pixmap and CopyArea), OBS (Composite's named
# pixmap) and GStreamer (DAMAGE) do: libxcomposite-dev (also a build package) and libxdamage-dev
# are its headers.
tests="webp xvfb openbox x11-utils x11-xserver-utils scrot maim xclip xdotool imagemagick x11-apps ffmpeg fonts-dejavu-core mandoc
  zsh fish
  python3-gi gir1.2-glib-2.0 python3-xlib
  libatspi2.0-0 libatspi2.0-dev at-spi2-core dbus dbus-x11 gir1.2-gtk-3.0 gir1.2-atspi-2.0
  picom dunst libnotify-bin
  dbus-daemon systemd libglib2.0-bin desktop-file-utils make file binutils dpkg-dev
  xfce4-settings parcellite gnome-screenshot xfce4-screenshooter mate-utils
  libtesseract5 tesseract-ocr-eng libtesseract-dev tesseract-ocr
  python3-pil fonts-dejavu-extra fonts-liberation2 fonts-noto-mono fonts-cantarell fonts-croscore fonts-open-sans fonts-hack
  xterm trayer libcurl4 zenity
  libxdamage-dev"

check=""
if [ "${1:-}" = "--check" ]; then
    check=1
    shift
fi
case "${1:-all}" in
    build) packages=$build ;;
    all) packages="$build $tests" ;;
    *) echo "usage: $0 [--check] [build|all]" >&2; exit 2 ;;
esac

# One query for every package; those not installed (or unknown to dpkg) are missing.
installed=$(dpkg-query -W -f='${db:Status-Abbrev}${Package}\n' $packages 2>/dev/null | sed -n 's/^ii *//p' || true)
missing=""
for package in $packages; do
    case "
$installed
" in
        *"
$package
"*) ;;
        *) missing="$missing $package" ;;
    esac
done

if [ -n "$missing" ]; then
    if [ -n "$check" ]; then
        echo "missing Debian packages:$missing (run 'make deps' or scripts/install-deps.sh to install them)" >&2
        exit 1
    fi
    echo "installing:$missing"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "shotguard needs the Swift 6 toolchain (swift) on PATH: https://www.swift.org/install/linux/" >&2
    exit 1
fi
