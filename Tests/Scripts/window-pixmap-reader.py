#!/usr/bin/python3
# Reads a window's contents the way a browser shares one window (python3-xlib): maps a window
# with a border at X,Y (its outer corner) of W x H inside a border of B, redirects it with
# Composite, names its pixmap (NameWindowPixmap), and reads the whole pixmap, then the part
# PX,PY,PW,PH of it, with GetImage. Prints the window's id, then 64 KiB of padding: a test that
# reads its output through a small pipe keeps it (and its window) alive until it reads on.
#   window-pixmap-reader.py X Y W H B PX PY PW PH
import sys
from Xlib import X, display

x, y, width, height, border, px, py, pw, ph = (int(value) for value in sys.argv[1:10])
d = display.Display()
if not d.has_extension("Composite"):
    sys.exit("window-pixmap-reader: the X server has no Composite extension")
screen = d.screen()
window = screen.root.create_window(x, y, width, height, border, screen.root_depth,
                                   background_pixel=0x3060C0, border_pixel=0xC06030, override_redirect=True)
window.map()
d.sync()
window.composite_redirect_window(0)  # CompositeRedirectAutomatic
pixmap = window.composite_name_window_pixmap()
d.sync()
pixmap.get_image(0, 0, width + 2 * border, height + 2 * border, X.ZPixmap, 0xFFFFFFFF)
pixmap.get_image(px, py, pw, ph, X.ZPixmap, 0xFFFFFFFF)
print(hex(window.id), flush=True)
sys.stdout.write("." * 65536 + "\n")
sys.stdout.flush()
