#!/usr/bin/python3
# For tests (python3-xlib): waits until SELECTION has an owner other than the windows named,
# on XFixes owner notifications (no polling), and prints that owner's id; exits 1 when none
# comes within SECONDS.
#   selection-owner.py SELECTION SECONDS [NOT_WINDOW...]
import select, sys, time
from Xlib import display

d = display.Display()
d.xfixes_query_version()
selection = d.intern_atom(sys.argv[1])
deadline = time.monotonic() + float(sys.argv[2])
excluded = {int(window, 0) for window in sys.argv[3:]}
d.xfixes_select_selection_input(d.screen().root, selection, 1)  # SetSelectionOwnerNotifyMask
d.sync()
# Asked after selecting the notifications, so that no change between the two is missed.
owner = getattr(d.get_selection_owner(selection), "id", 0)
while owner == 0 or owner in excluded:
    while d.pending_events():
        e = d.next_event()
        if type(e).__name__ == "SetSelectionOwnerNotify" and e.selection == selection:
            owner = getattr(e.owner, "id", e.owner)
    if owner != 0 and owner not in excluded:
        break
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        sys.exit("no owner of %s within %s s" % (sys.argv[1], sys.argv[2]))
    select.select([d], [], [], remaining)
print(hex(owner), flush=True)
