#!/usr/bin/python3
# A clipboard manager in small, for tests (python3-xlib): owns CLIPBOARD_MANAGER, prints
# "ready", and on SAVE_TARGETS reads TARGETS and image/png from CLIPBOARD, writes the image
# to argv[1] (reading INCR transfers too), confirms to the requestor and prints "saved".
import sys
from Xlib import X, Xatom, display
from Xlib.protocol import event
d = display.Display()
w = d.screen().root.create_window(0, 0, 1, 1, 0, X.CopyFromParent, event_mask=X.PropertyChangeMask)
names = ("CLIPBOARD_MANAGER", "CLIPBOARD", "SAVE_TARGETS", "TARGETS", "image/png", "MANAGER_DATA", "INCR")
manager, clipboard, save, targets, png, data, incr = (d.intern_atom(n) for n in names)
w.set_selection_owner(manager, X.CurrentTime)
d.flush()
print("ready", flush=True)

def convert(target, time):
    w.convert_selection(clipboard, target, data, time)
    while True:
        e = d.next_event()
        if e.type == X.SelectionNotify and e.target == target:
            break
    if e.property == X.NONE:
        sys.exit("CLIPBOARD refused %d" % target)
    whole = w.get_full_property(data, X.AnyPropertyType)
    w.delete_property(data)
    d.flush()
    if whole.property_type != incr:
        return whole.value
    # INCR (ICCCM 2.7.2): each chunk comes as a new value, read and deleted; an empty one ends it.
    chunks = b""
    while True:
        e = d.next_event()
        if e.type != X.PropertyNotify or e.atom != data or e.state != X.PropertyNewValue:
            continue
        chunk = w.get_full_property(data, X.AnyPropertyType)
        w.delete_property(data)
        d.flush()
        if not chunk.value:
            return chunks
        chunks += bytes(chunk.value)

while True:
    e = d.next_event()
    if e.type == X.SelectionRequest and e.selection == manager and e.target == save:
        break
offered = list(convert(targets, e.time))
if png not in offered:
    sys.exit("image/png is not among the targets")
image = convert(png, e.time)
open(sys.argv[1], "wb").write(bytes(image))
e.requestor.change_property(e.property, d.intern_atom("NULL"), 32, [])
e.requestor.send_event(event.SelectionNotify(time=e.time, requestor=e.requestor, selection=e.selection,
                                             target=e.target, property=e.property))
d.sync()  # a round trip: python-xlib can drop unwritten requests when it exits
print("saved", flush=True)
