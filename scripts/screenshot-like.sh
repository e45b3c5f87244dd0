#!/bin/sh
# Paints a screenshot-like PNG (text in windows, toolbars, a photo-like area; not a flat colour)
# with ImageMagick, for benchmarks and the demo's background.
# usage: scripts/screenshot-like.sh WIDTH HEIGHT OUT.png
set -eu
w=$1 h=$2 out=$3
convert=/usr/bin/convert
text=""
y=60
while [ "$y" -lt "$h" ]; do
    text="$text text 40,$y 'Build #$y passed: 1423 tests, 0 failures; commit 9f2c$y on main by dev@example.org'"
    text="$text text $((w / 2 + 40)),$y 'INFO  $y ms  GET /api/v1/items?page=$y 200 OK  (cache miss, 17 kB)'"
    y=$((y + 18))
done
"$convert" -size "${w}x${h}" xc:'#f4f4f2' \
    -fill '#2b2d31' -draw "rectangle 0,0 $w,32" \
    -fill '#ffffff' -draw "rectangle $((w / 2)),40 $((w - 20)),$((h - 20))" \
    \( -size "$((w / 3))x$((h / 3))" -seed 7 plasma:'#3a6ea5-#e0c080' \) -geometry "+$((w / 8))+$((h / 2))" -composite \
    -fill '#1d1f23' -pointsize 13 -draw "$text" \
    -fill '#e8e8e8' -pointsize 14 -draw "text 12,22 'Activities   Terminal   Firefox   Files   12:34'" \
    -depth 8 "PNG24:$out"
