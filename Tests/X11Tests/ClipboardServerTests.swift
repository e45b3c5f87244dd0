// ClipboardServer against xclip on a private Xvfb: the bytes served, INCR, TARGETS, queueing, loss.
import ShotguardBase
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class ClipboardServerTests: XvfbTestCase {
    private var pump: EventPump!
    private var displayName = ""

    override func setUpWithError() throws {
        guard programExists("xclip") else { throw FixtureError("xclip is not installed (Debian package 'xclip')") }
        try super.setUpWithError()
        displayName = display.name
        pump = try EventPump(display: display, watchClipboard: true)
    }

    override func tearDown() {
        pump = nil
        super.tearDown()
    }

    /// Bytes that no two tests share, and that do not compress (xclip passes them through as they are).
    private func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 32)
        }
    }

    /// Runs `xclip -o` with `arguments` while the pump serves; its output and exit status.
    private func paste(_ arguments: String, whileWaiting: (() -> Void)? = nil) throws -> (bytes: [UInt8], status: Int32) {
        let command = try PipedCommand("xclip -o -selection clipboard \(arguments)", display: displayName)
        XCTAssertTrue(pump.run(seconds: 20, output: command) {
            whileWaiting?()
            return command.ended
        }, "xclip -o \(arguments) did not finish")
        return (command.output, command.status())
    }

    private func served(incremental: Bool) -> [Int] {
        pump.serverEvents.compactMap {
            if case .served("image/png", _, let bytes, incremental) = $0 { return bytes } else { return nil }
        }
    }

    func testXclipPastesExactlyTheProvidedBytes() throws {
        let image = noise(40_000, seed: 1)
        try pump.server.takeOwnership(now: monotonicNow())
        pump.server.provide(png: image, now: monotonicNow())
        let pasted = try paste("-t image/png")
        XCTAssertEqual(pasted.status, 0)
        XCTAssertEqual(pasted.bytes.count, image.count)
        XCTAssertTrue(pasted.bytes == image, "the pasted bytes differ from the provided ones")
        XCTAssertEqual(served(incremental: false), [image.count])
    }

    func testFiveMegabytesGoByINCRAndArriveWhole() throws {
        let image = noise(5 * 1024 * 1024, seed: 2)
        try pump.server.takeOwnership(now: monotonicNow())
        pump.server.provide(png: image, now: monotonicNow())
        let pasted = try paste("-t image/png")
        XCTAssertEqual(pasted.status, 0)
        XCTAssertEqual(pasted.bytes.count, image.count)
        XCTAssertTrue(pasted.bytes == image, "the pasted bytes differ from the provided ones")
        XCTAssertEqual(served(incremental: true), [image.count], "\(pump.serverEvents)")
    }

    func testTargetsListTheImageAndOtherTargetsAreRefused() throws {
        try pump.server.takeOwnership(now: monotonicNow())
        pump.server.provide(png: noise(100, seed: 3), others: [(target: "image/bmp", bytes: noise(50, seed: 4))], now: monotonicNow())
        let listed = try paste("-t TARGETS")
        XCTAssertEqual(listed.status, 0)
        let names = String(decoding: listed.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(Set(names), ["TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS", "image/png", "image/bmp"])

        let bmp = try paste("-t image/bmp")
        XCTAssertTrue(bmp.bytes == noise(50, seed: 4), "the other image target is served too")

        let text = try paste("-t UTF8_STRING")
        XCTAssertNotEqual(text.status, 0, "a text target is refused")
        XCTAssertEqual(text.bytes, [])
        XCTAssertTrue(pump.serverEvents.contains { if case .refused("UTF8_STRING", _, _) = $0 { return true } else { return false } },
                      "\(pump.serverEvents)")
    }

    func testARequestQueuedWhilePendingIsAnsweredWithTheProvidedBytes() throws {
        let image = noise(70_000, seed: 5)
        try pump.server.takeOwnership(now: monotonicNow())
        XCTAssertEqual(pump.server.state, .pending)
        var provided = false
        let pasted = try paste("-t image/png") {
            // Provided only once xclip's request waits in the queue: as when redaction ends.
            if !provided, self.pump.server.queuedRequests > 0 {
                self.pump.server.provide(png: image, now: monotonicNow())
                provided = true
            }
        }
        XCTAssertTrue(provided, "xclip's request was never queued")
        XCTAssertEqual(pasted.status, 0)
        XCTAssertTrue(pasted.bytes == image, "the pasted bytes differ from the provided ones")
    }

    func testQueuedRequestsAreRefusedWhenNoImageComesInTime() throws {
        try pump.server.takeOwnership(now: monotonicNow())
        var expired = false
        let pasted = try paste("-t image/png") {
            if !expired, self.pump.server.queuedRequests > 0 {
                // The clock of the server is the caller's: jump past the pending timeout.
                _ = self.pump.desktop.expire(now: monotonicNow() + ClipboardServer.pendingTimeout + 1)
                expired = true
            }
        }
        XCTAssertTrue(expired, "xclip's request was never queued")
        XCTAssertNotEqual(pasted.status, 0)
        XCTAssertEqual(pasted.bytes, [])
    }

    func testLosingTheClipboardToXclipIsReportedWithTheNewOwner() throws {
        try pump.server.takeOwnership(now: monotonicNow())
        pump.server.provide(png: noise(100, seed: 6), now: monotonicNow())
        let taker = try PipedCommand("xclip -i -quiet -selection clipboard /dev/null", display: displayName)
        defer { taker.child.stop() }
        XCTAssertTrue(pump.run(seconds: 10) {
            pump.serverEvents.contains { if case .lost(let owner) = $0 { return owner != nil } else { return false } }
        }, "no loss reported: \(pump.serverEvents)")
        XCTAssertFalse(pump.server.ownsClipboard)
        XCTAssertEqual(pump.server.state, .idle)
    }

    /// Taking the clipboard again is for a new image: the last one is not served meanwhile
    /// (it may be an earlier screenshot left as it was).
    func testANewOwnershipWaitsForItsOwnImageAndKnowsTheOldOne() throws {
        let old = noise(100, seed: 8)
        try pump.server.takeOwnership(now: monotonicNow())
        pump.server.provide(png: old, now: monotonicNow())
        let taker = try PipedCommand("xclip -i -quiet -selection clipboard /dev/null", display: displayName)
        defer { taker.child.stop() }
        XCTAssertTrue(pump.run(seconds: 10) { !self.pump.server.ownsClipboard }, "the clipboard was not lost: \(pump.serverEvents)")
        try pump.server.takeOwnership(now: monotonicNow())
        XCTAssertEqual(pump.server.state, .pending, "no image yet for the new ownership")
        XCTAssertFalse(pump.server.isServing(old), "the old image is not served any more")
        let new = noise(120, seed: 9)
        let pasted = try paste("-t image/png") {
            if self.pump.server.queuedRequests > 0, self.pump.server.state == .pending {
                self.pump.server.provide(png: new, now: monotonicNow())
            }
        }
        XCTAssertEqual(pasted.status, 0)
        XCTAssertTrue(pasted.bytes == new, "the paste got the new image, not the old one")
    }

    /// After the pending time ran out once, a later paste waits again and is answered (or
    /// refused after its own wait), never queued forever.
    func testAPasteAfterAnExpiredWaitStartsANewWait() throws {
        try pump.server.takeOwnership(now: monotonicNow())
        pump.server.expire(now: monotonicNow() + ClipboardServer.pendingTimeout + 1)
        XCTAssertNil(pump.server.deadline, "nothing waits")
        let image = noise(90, seed: 10)
        var sawDeadline = false
        let pasted = try paste("-t image/png") {
            if self.pump.server.queuedRequests > 0, self.pump.server.deadline != nil {
                sawDeadline = true
                self.pump.server.provide(png: image, now: monotonicNow())
            }
        }
        XCTAssertTrue(sawDeadline, "the queued paste had no deadline")
        XCTAssertEqual(pasted.status, 0)
        XCTAssertTrue(pasted.bytes == image)
    }

    func testItsOwnOwnershipIsNoClipboardSignal() throws {
        try pump.server.takeOwnership(now: monotonicNow())
        pump.server.provide(png: noise(100, seed: 7), now: monotonicNow())
        pump.display.sync()
        pump.run(seconds: 0) { false }
        XCTAssertNil(pump.desktop.deadline, "no read of our own image was started")
        XCTAssertTrue(pump.signals.isEmpty, "\(pump.signals)")
    }
}
