// Handing the served image to a clipboard manager (a python3-xlib one) before the server goes.
import Foundation
import ShotguardX11
import XCTest
import ShotguardBase

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

    /// The small clipboard manager the tests share (Tests/Scripts/clipboard-manager.py).
    static let managerScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/clipboard-manager.py").path

    func testTheServedImageIsHandedToTheClipboardManager() throws {
        let display = try Self.fixture.display()
        let pump = try EventPump(display: display, watchClipboard: true)
        XCTAssertNil(pump.server.clipboardManager, "no manager runs yet")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hand-off-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let saved = folder.appendingPathComponent("saved.png")

        let image = (0..<60_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        try pump.server.takeOwnership(now: now())
        pump.server.provide(png: image, now: now())
        let manager = try PipedCommand("/usr/bin/python3 '\(Self.managerScript)' '\(saved.path)'", display: display.name)
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
