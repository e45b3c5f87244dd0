// Handing the served image to a clipboard manager (a python3-xlib one) before the server goes.
import Foundation
import ShotguardTestSupport
import ShotguardX11
import XCTest
import ShotguardBase

final class ClipboardHandOffTests: XvfbTestCase {
    /// The small clipboard manager the tests share (Tests/Scripts/clipboard-manager.py).
    static let managerScript = repositoryFile("Tests/Scripts/clipboard-manager.py").path

    func testTheServedImageIsHandedToTheClipboardManager() throws {
        let pump = try EventPump(display: display, watchClipboard: true)
        XCTAssertNil(pump.server.clipboardManager, "no manager runs yet")
        let saved = try TemporaryFolder(self, label: "hand-off").url.appendingPathComponent("saved.png")

        let image = (0..<60_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        try pump.server.takeOwnership(now: monotonicNow())
        pump.server.provide(png: image, now: monotonicNow())
        let manager = try PipedCommand("/usr/bin/python3 '\(Self.managerScript)' '\(saved.path)'", display: display.name)
        defer { manager.child.stop() }
        XCTAssertTrue(pump.run(seconds: 10, output: manager) { manager.output.starts(with: Array("ready".utf8)) },
                      "the manager did not start")
        // The manager says ready once it owns CLIPBOARD_MANAGER; the server learns it from the
        // XFixes event, which may still be on its way: wait for it, not for a reading at once.
        XCTAssertTrue(pump.run(seconds: 10) { pump.server.clipboardManager != nil }, "the server never saw the manager")

        XCTAssertTrue(pump.server.handOffAndWait(), "the manager did not confirm: \(pump.server.takeEvents())")
        XCTAssertEqual(manager.status(), 0)
        XCTAssertTrue(try Data(contentsOf: saved) == Data(image), "the manager stored the served bytes")
    }

    func testNoHandOffWithoutAnImage() throws {
        let pump = try EventPump(display: display, watchClipboard: false)
        try pump.server.takeOwnership(now: monotonicNow())
        XCTAssertFalse(pump.server.beginHandOff(now: monotonicNow()), "nothing to hand while the image is pending")
        pump.server.release(now: monotonicNow())
        XCTAssertFalse(pump.server.ownsClipboard)
    }
}
