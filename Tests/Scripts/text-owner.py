#!/usr/bin/python3
# For tests (python3-xlib): owns CLIPBOARD with the text argv[1] (UTF8_STRING, STRING), as a
# text editor does after a copy. Prints "owner" once it owns CLIPBOARD and "read" each time a
# client reads the text (a clipboard history polling it), and serves until another client takes
# CLIPBOARD.
import sys
from Xlib import X, Xatom, display
from Xlib.protocol import event

d = display.Display()
w = d.screen().root.create_window(0, 0, 1, 1, 0, X.CopyFromParent, event_mask=X.PropertyChangeMask)
clipboard, targets, utf8 = (d.intern_atom(n) for n in ("CLIPBOARD", "TARGETS", "UTF8_STRING"))
text = sys.argv[1].encode()
# A real server time for the ownership: the PropertyNotify of a zero-length append.
w.change_property(d.intern_atom("TEXT_OWNER_TIME"), Xatom.INTEGER, 32, [], X.PropModeAppend)
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
        e.requestor.change_property(prop, Xatom.ATOM, 32, [targets, utf8, Xatom.STRING])
    elif e.target in (utf8, Xatom.STRING):
        e.requestor.change_property(prop, e.target, 8, text)
    else:
        prop = X.NONE
    e.requestor.send_event(event.SelectionNotify(time=e.time, requestor=e.requestor, selection=e.selection,
                                                 target=e.target, property=prop))
    d.flush()
    if prop != X.NONE and e.target != targets:
        print("read", flush=True)
d.sync()  # a round trip: python-xlib can drop unwritten requests when it exits
