#!/bin/sh
# Installs the Debian packages shotguard needs to build, test, run the demo and bench.
# Uses apt-get as root, sudo otherwise; installs only what is missing.
set -eu
# libatspi2.0-0 is loaded at run time by field rules (never linked); libatspi2.0-dev is only for
# the test that checks shotguard's copy of its constants and layouts against the real headers.
# Text rules: libtesseract5 is loaded at run time by their OCR (never linked) with its English
# model (tesseract-ocr-eng); libtesseract-dev is only for the test that checks shotguard's copy of
# its C constants, tesseract-ocr for the bench's command-line peer. python3-pil and the font
# packages make the text rules' test corpus (scripts/text-corpus.py).
packages="pkg-config libx11-dev libx11-xcb-dev libxext-dev libxfixes-dev libxrandr-dev libxi-dev libpng-dev zlib1g-dev libpcre2-dev
  libturbojpeg0-dev libwebp-dev libdeflate-dev webp
  xvfb openbox x11-utils x11-xserver-utils scrot maim xclip xdotool imagemagick fonts-dejavu-core mandoc zsh fish
  python3-gi gir1.2-glib-2.0 python3-xlib
  libatspi2.0-0 libatspi2.0-dev at-spi2-core dbus gir1.2-gtk-3.0 gir1.2-atspi-2.0
  picom
  libtesseract5 tesseract-ocr-eng libtesseract-dev tesseract-ocr
  python3-pil fonts-dejavu-extra fonts-liberation2 fonts-noto-mono"
missing=""
for package in $packages; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing="$missing $package"
done
if [ -n "$missing" ]; then
    echo "installing:$missing"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "shotguard needs the Swift 6 toolchain (swift) on PATH: https://www.swift.org/install/linux/" >&2
    exit 1
fi
