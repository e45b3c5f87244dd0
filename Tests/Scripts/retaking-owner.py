#!/usr/bin/python3
# A clipboard owner that will not let go, for tests (python3-xlib): takes CLIPBOARD offering
# image/png from FILE and, each time another client takes CLIPBOARD from it, takes it back with
# the same image from the same window and process, RETAKES times. Prints "owner" when it first
# owns CLIPBOARD, "retook N" after each retake, and "gave up" when it loses CLIPBOARD after the
# last one, then exits. A retake counts once the server confirms the ownership. Requests are
# answered all along, also while a retake waits for its server time. FILE must fit in one
# request (no INCR).
#   retaking-owner.py FILE RETAKES
import sys
from Xlib import X, Xatom, display
from Xlib.protocol import event

d = display.Display()
w = d.screen().root.create_window(0, 0, 1, 1, 0, X.CopyFromParent, event_mask=X.PropertyChangeMask)
clipboard, targets, png = d.intern_atom("CLIPBOARD"), d.intern_atom("TARGETS"), d.intern_atom("image/png")
stamp = d.intern_atom("RETAKING_OWNER_TIME")
image = open(sys.argv[1], "rb").read()
retakes = int(sys.argv[2])


def ask_for_time():
    # A real server time for the ownership: the PropertyNotify of a zero-length append.
    w.change_property(stamp, Xatom.INTEGER, 32, [], X.PropModeAppend)
    d.flush()


ask_for_time()
taken = -1  # the first take is no retake
while True:
    e = d.next_event()
    if e.type == X.PropertyNotify and e.window == w and e.atom == stamp:
        w.set_selection_owner(clipboard, e.time)
        if d.get_selection_owner(clipboard) != w:
            # Someone took it after that time (the server ignores an older one): ask again.
            ask_for_time()
            continue
        taken += 1
        print("retook %d" % taken if taken else "owner", flush=True)
    elif e.type == X.SelectionClear and e.atom == clipboard:
        if taken == retakes:
            break
        ask_for_time()
    elif e.type == X.SelectionRequest:
        prop = e.property or e.target
        if e.target == targets:
            e.requestor.change_property(prop, Xatom.ATOM, 32, [targets, png])
        elif e.target == png:
            e.requestor.change_property(prop, png, 8, image)
        else:
            prop = X.NONE
        e.requestor.send_event(event.SelectionNotify(time=e.time, requestor=e.requestor, selection=e.selection,
                                                     target=e.target, property=prop))
        d.flush()
print("gave up", flush=True)
d.sync()  # a round trip: python-xlib can drop unwritten requests when it exits
