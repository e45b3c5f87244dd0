#!/usr/bin/python3
# A clipboard owner in small, for tests (python3-xlib): takes CLIPBOARD and offers each
# argument TARGET=FILE besides TARGETS, the way an image viewer or a browser offers one image in
# several formats (image/png=shot.png image/jpeg=shot.jpg) or an editor a text
# (UTF8_STRING=text.txt STRING=text.txt). Prints "owner" once it owns CLIPBOARD and "read" each
# time a client reads an offer (a clipboard history polling it), and serves until another client
# takes it. Each file must fit in one request (no INCR).
import sys
from Xlib import X, Xatom, display
from Xlib.protocol import event

d = display.Display()
w = d.screen().root.create_window(0, 0, 1, 1, 0, X.CopyFromParent, event_mask=X.PropertyChangeMask)
clipboard, targets = d.intern_atom("CLIPBOARD"), d.intern_atom("TARGETS")
offers = {}
for argument in sys.argv[1:]:
    name, path = argument.split("=", 1)
    offers[d.intern_atom(name)] = open(path, "rb").read()
# A real server time for the ownership: the PropertyNotify of a zero-length append.
w.change_property(d.intern_atom("CLIPBOARD_OWNER_TIME"), Xatom.INTEGER, 32, [], X.PropModeAppend)
while True:
    e = d.next_event()
    if e.type == X.PropertyNotify:
        break
w.set_selection_owner(clipboard, e.time)
d.sync()
print("owner", flush=True)
while True:
    e = d.next_event()
    if e.type == X.SelectionClear:
        break
    if e.type != X.SelectionRequest:
        continue
    prop = e.property or e.target
    if e.target == targets:
        e.requestor.change_property(prop, Xatom.ATOM, 32, [targets] + list(offers))
    elif e.target in offers:
        e.requestor.change_property(prop, e.target, 8, offers[e.target])
    else:
        prop = X.NONE
    e.requestor.send_event(event.SelectionNotify(time=e.time, requestor=e.requestor, selection=e.selection,
                                                 target=e.target, property=prop))
    d.flush()
    if prop != X.NONE and e.target != targets:
        print("read", flush=True)
d.sync()  # a round trip: python-xlib can drop unwritten requests when it exits
