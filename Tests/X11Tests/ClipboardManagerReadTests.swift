// Reading an image that an exiting tool hands to a clipboard manager: the refusal is not the end.
import Foundation
import ShotguardBase
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class ClipboardManagerReadTests: XvfbTestCase {
    private var pump: EventPump!
    private var displayName = ""
    private var folder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        displayName = display.name
        pump = try EventPump(display: display, watchClipboard: true)
        folder = try TemporaryFolder(self, label: "clipboard-manager").url
    }

    override func tearDown() {
        pump = nil
        super.tearDown()
    }

    /// The image the second owner serves: any bytes do, the reader does not decode them.
    private func image(seed: UInt8) throws -> (bytes: [UInt8], path: String) {
        let bytes = [0x89, 0x50, 0x4E, 0x47] + (0..<30_000).map { UInt8(truncatingIfNeeded: $0 * 7 + Int(seed)) }
        let url = folder.appendingPathComponent("image-\(seed).png")
        try Data(bytes).write(to: url)
        return (bytes, url.path)
    }

    private func readThroughHandOver(_ order: RefusingOwner.Order, seed: UInt8) throws {
        let (bytes, path) = try image(seed: seed)
        let owner = try RefusingOwner.start(display: displayName, order: order,
                                            handOver: order != .refuseFirst ? [path]
                                                : ["xclip", "-selection", "clipboard", "-t", "image/png", "-i", path])
        defer { owner.stop() }
        XCTAssertTrue(pump.run(seconds: 10) { !pump.images.isEmpty }, "no image; signals: \(pump.signals)")
        XCTAssertEqual(pump.images.count, 1)
        XCTAssertTrue(pump.images.first == bytes, "the image is the new owner's")
        // Without the image the owner still waits for a request: stopped by the defer instead.
        if !pump.images.isEmpty { XCTAssertEqual(owner.waitForExit(), 0, "the refusing owner handed over and exited") }
        XCTAssertEqual(pump.failures, [], "a refusal followed by a new owner is no failure")
    }

    /// The bug: the manager took CLIPBOARD before the old owner's refusal arrived, and the
    /// refusal ended the read of the manager, so the image was never read.
    func testARefusalArrivingAfterTheManagerTookOverDoesNotEndItsRead() throws {
        try readThroughHandOver(.managerFirst, seed: 1)
    }

    /// A refusal, then a new owner (xclip): no failure is reported, the image is read.
    func testARefusalFollowedByANewOwnerIsReadFromTheNewOwner() throws {
        try readThroughHandOver(.refuseFirst, seed: 2)
    }

    /// The bug (xfsettingsd as GTK tools exit): the manager took CLIPBOARD while the tool's
    /// image still came to it by INCR, refused image/png, and no new owner followed: the read
    /// failed after 2 s. Now the manager is asked again once the tool's window is gone, and the
    /// tool's late answer (GTK answers after losing CLIPBOARD) is not taken for the manager's.
    func testAManagerThatRefusedIsAskedAgainOnceTheToolIsGone() throws {
        try readThroughHandOver(.managerRefusesUntilToolGoes, seed: 3)
        let read = try XCTUnwrap(pump.reads.first)
        let handOffs = pump.signals.compactMap { signal -> (from: UInt, to: UInt)? in
            if case .clipboardHandOff(let from, let to) = signal { return (from, to) } else { return nil }
        }
        XCTAssertEqual(handOffs.count, 1, "\(pump.signals)")
        XCTAssertEqual(handOffs.first?.to, read.owner, "the manager took over")
        XCTAssertNotNil(read.handedOverBy)
        XCTAssertEqual(read.handedOverBy, handOffs.first?.from, "the image was handed over by the tool")
        XCTAssertNotEqual(read.handedOverBy, read.owner)
    }

    func testARefusalNoOwnerFollowsIsReportedOnceTheWaitIsOver() throws {
        // The hand-over takes nothing: the refusal stands, and is reported when the wait ends.
        let owner = try RefusingOwner.start(display: displayName, order: .refuseFirst, handOver: ["true"])
        defer { owner.stop() }
        XCTAssertTrue(pump.run(seconds: 10) { !pump.failures.isEmpty }, "no failure reported: \(pump.signals)")
        XCTAssertEqual(owner.waitForExit(), 0)
        XCTAssertEqual(pump.failures, ["the clipboard owner refused image/png"])
        XCTAssertEqual(pump.images.count, 0)
    }
}
