#!/usr/bin/python3
# A window storm, for tests (python3-xlib): creates COUNT unmapped top-level windows whose
# WM_CLASS is CLASS (a screenshot tool's), BATCH at a time; each batch is made (a round trip:
# the server has it), kept HOLD milliseconds, then destroyed. Prints "storm COUNT windows in
# SECONDS s" when the last is destroyed. With "mapped", each window is shown (override-redirect:
# no window manager frames it) as it is made, as a tool's overlay is.
#   window-storm.py COUNT BATCH CLASS HOLD [mapped]
import sys, time
from Xlib import X, Xatom, display

d = display.Display()
root = d.screen().root
count, batch, name, hold = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].encode(), float(sys.argv[4]) / 1000
mapped = sys.argv[5:] == ["mapped"]
start = time.monotonic()
alive = []
for _ in range(count):
    window = root.create_window(0, 0, 10, 10, 0, X.CopyFromParent, override_redirect=mapped)
    window.change_property(Xatom.WM_CLASS, Xatom.STRING, 8, name + b"\0" + name + b"\0")
    if mapped:
        window.map()
    alive.append(window)
    if len(alive) >= batch:
        d.sync()
        time.sleep(hold)
        for window in alive:
            window.destroy()
        alive = []
        d.flush()
for window in alive:
    window.destroy()
d.sync()
print("storm %d windows in %.2f s" % (count, time.monotonic() - start), flush=True)
