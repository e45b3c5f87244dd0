#!/usr/bin/python3
# Presses a key through XTEST and reads the screen the moment it is told a cover is up, as a
# screenshot tool bound to the key would at best (python3-xlib, python3-pil): for each of N
# presses, the key goes down and up, the root's MapNotify of an override-redirect window is
# awaited, the whole screen is read at once (GetImage) and, when the window is a shield's cover
# (its name), saved as FOLDER/press-I.png; then the cover's UnmapNotify is awaited and the next
# key pressed straight away. Before the first press the screen is saved as FOLDER/before.png.
# After the last cover came down, a DAMAGE object on the root (made after the last read, so no
# earlier read is a recording's) is awaited to report a paint over where the cover was (a
# compositing manager's repaint; without one, the server's repaint of the windows beneath), and
# the screen is read; a compositing manager may repaint that area in more than one frame, so it
# is read again at each such paint until it and 8 pixels around it are as before the first
# press, and the last read is saved as FOLDER/after.png (for the test to compare). Waits on
# events only, each at most 10 s, the repaints 10 s in all.
#   key-reader.py PRESSES KEYSYM FOLDER
import os
import select
import sys
import time
from collections import namedtuple

from PIL import Image
import Xlib.error
from Xlib import X, XK, display
from Xlib.ext import damage, xtest

presses, keysym, folder = int(sys.argv[1]), sys.argv[2], sys.argv[3]
d = display.Display()
root = d.screen().root
geometry = root.get_geometry()
d.damage_query_version()
root.change_attributes(event_mask=X.SubstructureNotifyMask)
d.sync()


def read():
    image = root.get_image(0, 0, geometry.width, geometry.height, X.ZPixmap, 0xFFFFFFFF)
    return Image.frombytes("RGB", (geometry.width, geometry.height), image.data, "raw", "BGRX")


def wait(wanted, what):
    deadline = time.monotonic() + 10
    while True:
        while d.pending_events():
            event = d.next_event()
            if wanted(event):
                return event
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            sys.exit(f"key-reader: no {what} within 10 s")
        select.select([d.fileno()], [], [], remaining)


Area = namedtuple("Area", "x y width height")


def overlaps(area, rect):
    return area.x < rect.x + rect.width and rect.x < area.x + area.width and \
        area.y < rect.y + rect.height and rect.y < area.y + area.height


before = read()
before.save(os.path.join(folder, "before.png"))
keycode = d.keysym_to_keycode(XK.string_to_keysym(keysym))
if keycode == 0:
    sys.exit(f"key-reader: no key for {keysym}")
cover = None
for press in range(presses):
    xtest.fake_input(d, X.KeyPress, keycode)
    xtest.fake_input(d, X.KeyRelease, keycode)
    d.flush()
    while True:
        cover = wait(lambda e: e.type == X.MapNotify and e.override, "cover mapped")
        image = read()
        try:
            name = cover.window.get_wm_name()
        except Xlib.error.BadWindow:
            # Another client's override-redirect window, gone already (a tooltip): not a cover.
            continue
        if name == "shotguard shield":
            break
    image.save(os.path.join(folder, f"press-{press}.png"))
    if press == presses - 1:
        root.damage_create(damage.DamageReportRawRectangles)
    wait(lambda e: e.type == X.UnmapNotify and e.window.id == cover.window.id, "cover unmapped")
rect = cover.window.get_geometry()
left, top = max(0, rect.x - 8), max(0, rect.y - 8)
right, bottom = min(geometry.width, rect.x + rect.width + 8), min(geometry.height, rect.y + rect.height + 8)
around = Area(left, top, right - left, bottom - top)
repainted = time.monotonic() + 10


def painted_around():
    """Whether a paint over the area around the cover came, reading every event already here
    (a frame's paint comes as many rectangles); None once the repaints' deadline has passed."""
    while True:
        remaining = repainted - time.monotonic()
        if remaining <= 0:
            return None
        if d.pending_events():
            break
        select.select([d.fileno()], [], [], remaining)
    painted = False
    while d.pending_events():
        event = d.next_event()
        # DAMAGE's events fail isinstance checks in python-xlib: matched by name.
        painted = painted or (type(event).__name__ == "DamageNotify" and overlaps(event.area, around))
    return painted


after = None
while (painted := painted_around()) is not None:
    if painted:
        after = read()
        if after.crop((left, top, right, bottom)).tobytes() == before.crop((left, top, right, bottom)).tobytes():
            break
if after is None:
    sys.exit("key-reader: no repaint where the cover was within 10 s")
after.save(os.path.join(folder, "after.png"))
