// A clipboard owner that offers image/png, refuses to give it, and hands over to another program.
import Glibc
import ShotguardBase
import ShotguardTestSupport
import ShotguardX11

/// Emulates a GTK tool that copies and exits (gnome-screenshot -c) while a clipboard manager
/// takes its image: it owns CLIPBOARD, lists image/png in TARGETS and refuses the image/png
/// conversion. With `.refuseFirst` it refuses, then runs `handOver` (a command that takes
/// CLIPBOARD with the image: xclip -i). With `.managerFirst` it plays the manager winning the
/// race: a second window of its own takes CLIPBOARD, the refusal is sent in the same flush
/// (so a reader sees the new owner, then the old owner's refusal, then the new owner's
/// answers), and that window serves the file `handOver[0]` as image/png. With
/// `.managerRefusesUntilToolGoes` it plays xfsettingsd: the manager window takes CLIPBOARD, the
/// tool answers the old request late with data that is not the image (GTK answers after losing
/// CLIPBOARD), the manager refuses image/png once (its INCR from the tool is not in yet), then
/// the tool's window goes and the manager serves `handOver[0]`.
enum RefusingOwner {
    enum Order: String {
        case managerFirst = "manager-first", refuseFirst = "refuse-first", managerRefusesUntilToolGoes = "manager-refuses"
    }

    /// Starts the owner with the system python3 (python3-xlib); it exits after handing over.
    static func start(display: String, order: Order, handOver: [String]) throws -> ChildProcess {
        let python = "/usr/bin/python3"
        guard programExists("xclip"), access(python, X_OK) == 0 else {
            throw FixtureError("this test needs /usr/bin/python3 with python3-xlib, and xclip")
        }
        return try ChildProcess(python, ["-c", script, order.rawValue] + handOver, environment: ["DISPLAY": display],
                                output: .inherit)
    }

    static let script = #"""
        import subprocess, sys
        from Xlib import X, Xatom, display
        from Xlib.protocol import event

        order, hand_over = sys.argv[1], sys.argv[2:]
        d = display.Display()
        w = d.screen().root.create_window(0, 0, 1, 1, 0, X.CopyFromParent, event_mask=X.PropertyChangeMask)
        clipboard, targets, png = (d.intern_atom(n) for n in ("CLIPBOARD", "TARGETS", "image/png"))
        # A real server time for the ownership: the PropertyNotify of a zero-length append.
        w.change_property(d.intern_atom("REFUSING_OWNER_TIME"), Xatom.INTEGER, 32, [], X.PropModeAppend)
        while True:
            e = d.next_event()
            if e.type == X.PropertyNotify:
                break
        w.set_selection_owner(clipboard, e.time)
        if d.get_selection_owner(clipboard).id != w.id:
            sys.exit("could not own CLIPBOARD")

        def answer(request, prop):
            request.requestor.send_event(event.SelectionNotify(time=request.time, requestor=request.requestor,
                selection=request.selection, target=request.target, property=prop))
            d.flush()

        while True:
            e = d.next_event()
            if e.type != X.SelectionRequest:
                continue
            if e.target == targets:
                e.requestor.change_property(e.property, Xatom.ATOM, 32, [targets, png])
                answer(e, e.property)
            elif e.target == png:
                if order == "refuse-first":
                    answer(e, X.NONE)
                    subprocess.run(hand_over, check=True)
                    break
                image = open(hand_over[0], "rb").read()
                manager = d.screen().root.create_window(0, 0, 1, 1, 0, X.CopyFromParent)
                manager.set_selection_owner(clipboard, X.CurrentTime)
                if order == "manager-refuses":
                    e.requestor.change_property(e.property, png, 8, b"the tool's late answer")
                    answer(e, e.property)
                    refused = False
                    while True:
                        e = d.next_event()
                        if e.type != X.SelectionRequest or e.owner.id != manager.id:
                            continue
                        if e.target == targets:
                            e.requestor.change_property(e.property, Xatom.ATOM, 32, [targets, png])
                            answer(e, e.property)
                        elif e.target == png and not refused:
                            answer(e, X.NONE)
                            refused = True
                            w.destroy()  # the tool exits once the manager has confirmed the save
                            d.flush()
                        elif e.target == png:
                            e.requestor.change_property(e.property, png, 8, image)
                            answer(e, e.property)
                            break
                        else:
                            answer(e, X.NONE)
                    break
                answer(e, X.NONE)
                while True:
                    e = d.next_event()
                    if e.type != X.SelectionRequest or e.owner.id != manager.id:
                        continue
                    if e.target == targets:
                        e.requestor.change_property(e.property, Xatom.ATOM, 32, [targets, png])
                    elif e.target == png:
                        e.requestor.change_property(e.property, png, 8, image)
                    answer(e, e.property if e.target in (targets, png) else X.NONE)
                    if e.target == png:
                        break
                break
            else:
                answer(e, X.NONE)
        # A round trip before closing: python-xlib can drop what it has not yet written when
        # the connection closes, and the last answer would never reach the reader.
        d.sync()
        d.close()
        """#
}
