#!/usr/bin/python3
# A GTK 3 window that scrolls a long text, as a reader or an editor does (python3-gi, gir1.2-gtk-3.0):
# gtk-scroller.py STEPS [X Y]. Prints "shown" once the window is drawn, scrolls one step every
# 16 ms (STEPS of them; 0: for ever), then prints "done" and exits.
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

steps = int(sys.argv[1])
x, y = (int(value) for value in sys.argv[2:4]) if len(sys.argv) >= 4 else (250, 40)
window = Gtk.Window(title="scroller")
window.set_default_size(360, 300)
window.move(x, y)
scrolled = Gtk.ScrolledWindow()
view = Gtk.TextView()
view.get_buffer().set_text("\n".join(f"line {n}: some text a person scrolls through in a GTK window" for n in range(5000)))
scrolled.add(view)
window.add(scrolled)
window.connect("destroy", Gtk.main_quit)
adjustment = scrolled.get_vadjustment()
state = {"step": 0}


def shown(*_):
    print("shown", flush=True)
    GLib.timeout_add(16, scroll)
    return False


def scroll():
    adjustment.set_value(adjustment.get_value() + 9)
    state["step"] += 1
    if steps and state["step"] >= steps:
        print("done", flush=True)
        Gtk.main_quit()
        return False
    return True


window.connect("map-event", lambda *_: GLib.timeout_add(100, shown))
window.show_all()
Gtk.main()
