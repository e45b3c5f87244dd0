// Handing the served image to a clipboard manager (a python3-xlib one) before the server goes.
import Foundation
import ShotguardX11
import XCTest

final class ClipboardHandOffTests: XCTestCase {
    nonisolated(unsafe) static let fixture = XvfbFixture()

    override class func setUp() {
        super.setUp()
        fixture.start(width: 320, height: 240)
    }

    override class func tearDown() {
        fixture.stop()
        super.tearDown()
    }

    /// A clipboard manager in small: owns CLIPBOARD_MANAGER, says "ready", and on SAVE_TARGETS
    /// reads TARGETS and image/png from CLIPBOARD, writes the image to argv[1] and says it saved.
    static let manager = #"""
        import sys
        from Xlib import X, Xatom, display
        from Xlib.protocol import event
        d = display.Display()
        w = d.screen().root.create_window(0, 0, 1, 1, 0, X.CopyFromParent)
        names = ("CLIPBOARD_MANAGER", "CLIPBOARD", "SAVE_TARGETS", "TARGETS", "image/png", "MANAGER_DATA")
        manager, clipboard, save, targets, png, data = (d.intern_atom(n) for n in names)
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
            return w.get_full_property(data, X.AnyPropertyType).value

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
        """#

    func testTheServedImageIsHandedToTheClipboardManager() throws {
        let display = try Self.fixture.display()
        let pump = try EventPump(display: display, watchClipboard: true)
        XCTAssertNil(pump.server.clipboardManager, "no manager runs yet")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hand-off-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("manager.py")
        try Data(Self.manager.utf8).write(to: script)
        let saved = folder.appendingPathComponent("saved.png")

        let image = (0..<60_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        try pump.server.takeOwnership(now: now())
        pump.server.provide(png: image, now: now())
        let manager = try PipedCommand("/usr/bin/python3 '\(script.path)' '\(saved.path)'", display: display.name)
        defer { manager.child.stop() }
        XCTAssertTrue(pump.run(seconds: 10, output: manager) { manager.output.starts(with: Array("ready".utf8)) },
                      "the manager did not start")
        XCTAssertNotNil(pump.server.clipboardManager)

        XCTAssertTrue(pump.server.handOffAndWait(), "the manager did not confirm: \(pump.server.takeEvents())")
        XCTAssertEqual(manager.status(), 0)
        XCTAssertTrue(try Data(contentsOf: saved) == Data(image), "the manager stored the served bytes")
    }

    func testNoHandOffWithoutAnImage() throws {
        let display = try Self.fixture.display()
        let pump = try EventPump(display: display, watchClipboard: false)
        try pump.server.takeOwnership(now: now())
        XCTAssertFalse(pump.server.beginHandOff(now: now()), "nothing to hand while the image is pending")
        pump.server.release(now: now())
        XCTAssertFalse(pump.server.ownsClipboard)
    }
}
