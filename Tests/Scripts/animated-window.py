#!/usr/bin/python3
# A window that repaints itself 30 times a second, as a video or a spinner does (python3-xlib):
# animated-window.py X Y WIDTH HEIGHT. Prints "shown" once mapped and painted, then keeps
# painting a moving bar until it is killed.
import sys
import time
from Xlib import X, display

x, y, width, height = (int(value) for value in sys.argv[1:5])
d = display.Display()
screen = d.screen()
window = screen.root.create_window(x, y, width, height, 0, screen.root_depth, X.InputOutput, X.CopyFromParent,
                                   background_pixel=screen.black_pixel, override_redirect=1, event_mask=X.ExposureMask)
window.set_wm_name("animation")
window.set_wm_class("animation", "Animation")
window.map()
gc = window.create_gc(foreground=screen.white_pixel)
colours = [0xFF2020, 0x20FF20, 0x2020FF, 0xFFFF20]
frame = 0
shown = False
while True:
    gc.change(foreground=colours[frame % len(colours)])
    window.fill_rectangle(gc, 0, 0, width, height)
    gc.change(foreground=0x000000)
    window.fill_rectangle(gc, (frame * 7) % width, 0, 12, height)
    d.sync()
    if not shown:
        print("shown", flush=True)
        shown = True
    frame += 1
    time.sleep(1 / 30)
