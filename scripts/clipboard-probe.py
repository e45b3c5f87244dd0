#!/usr/bin/python3
"""Times guard's clipboard takeover from the tool's side (python3-xlib, one clock).

Plays a screenshot tool that copies: owns CLIPBOARD and serves image/png (argv[1]'s bytes) to
whoever asks. Prints, in milliseconds after it took CLIPBOARD: when it lost CLIPBOARD to the
agent ("owned"), and when a paste of image/png from the new owner arrived whole ("pasted"),
and whether that paste differed from the original ("redacted" or "original").
"""
import sys
import time
from Xlib import X, Xatom, display
from Xlib.protocol import event

original = open(sys.argv[1], "rb").read()
d = display.Display()
w = d.screen().root.create_window(0, 0, 1, 1, 0, X.CopyFromParent, event_mask=X.PropertyChangeMask)
clipboard, targets, png, incr, data = (d.intern_atom(n) for n in ("CLIPBOARD", "TARGETS", "image/png", "INCR", "PROBE_DATA"))
chunk_size = 200 * 1024

# A real server time for the ownership: the PropertyNotify of a zero-length append.
w.change_property(data, Xatom.INTEGER, 32, [], X.PropModeAppend)
while True:
    e = d.next_event()
    if e.type == X.PropertyNotify:
        break
w.delete_property(data)
w.set_selection_owner(clipboard, e.time)
d.flush()
took = time.perf_counter()
if d.get_selection_owner(clipboard).id != w.id:
    sys.exit("could not own CLIPBOARD")

def answer(request, prop):
    request.requestor.send_event(event.SelectionNotify(time=request.time, requestor=request.requestor,
                                 selection=request.selection, target=request.target, property=prop))
    d.flush()

# Serve the agent's reads until it takes CLIPBOARD (large images go by INCR, ICCCM 2.7.2).
incremental = {}
owned = None
while owned is None:
    e = d.next_event()
    if e.type == X.SelectionClear:
        owned = time.perf_counter()
    elif e.type == X.SelectionRequest and e.target == targets:
        e.requestor.change_property(e.property, Xatom.ATOM, 32, [targets, png])
        answer(e, e.property)
    elif e.type == X.SelectionRequest and e.target == png:
        if len(original) <= chunk_size:
            e.requestor.change_property(e.property, png, 8, original)
        else:
            e.requestor.change_attributes(event_mask=X.PropertyChangeMask)
            e.requestor.change_property(e.property, incr, 32, [len(original)])
            incremental[(e.requestor.id, e.property)] = (e.requestor, 0)
        answer(e, e.property)
    elif e.type == X.SelectionRequest:
        answer(e, X.NONE)
    elif e.type == X.PropertyNotify and e.state == X.PropertyDelete and (e.window.id, e.atom) in incremental:
        requestor, sent = incremental[(e.window.id, e.atom)]
        piece = original[sent:sent + chunk_size]
        requestor.change_property(e.atom, png, 8, piece)
        d.flush()
        if piece:
            incremental[(e.window.id, e.atom)] = (requestor, sent + len(piece))
        else:
            del incremental[(e.window.id, e.atom)]

# Paste: ask the new owner for image/png, reading INCR chunks if it sends them so.
w.convert_selection(clipboard, png, data, X.CurrentTime)
d.flush()
pasted = b""
receiving = False  # an INCR transfer started: new values of the property are its chunks
while True:
    e = d.next_event()
    if e.type == X.SelectionNotify and not receiving:
        if e.property == X.NONE:
            sys.exit("the new owner refused image/png")
        reply = w.get_full_property(data, X.AnyPropertyType)
        w.delete_property(data)
        d.flush()
        if reply is None:
            sys.exit("the new owner answered without data")
        if reply.property_type != incr:
            pasted = bytes(reply.value)
            break
        receiving = True
    elif receiving and e.type == X.PropertyNotify and e.atom == data and e.state == X.PropertyNewValue:
        piece = w.get_full_property(data, X.AnyPropertyType)
        w.delete_property(data)
        d.flush()
        if not piece.value:
            break
        pasted += bytes(piece.value)
done = time.perf_counter()
print(f"owned {(owned - took) * 1000:.2f} pasted {(done - took) * 1000:.2f} "
      f"{'original' if pasted == original else 'redacted'} {len(pasted)}")
d.sync()
