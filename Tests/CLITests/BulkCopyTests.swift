// A screenshot scaled to 90% and copied in with eight ordinary images: a burst excuses only weak images.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import XCTest

/// With RECORD, as on a desktop: scrot reads the screen and writes its capture to a pipe, and
/// ImageMagick's `convert` (which never reads the screen) scales it to 90%. The scaled image
/// cannot be placed on the screen, so what ties it to a capture is its name and scrot's read a
/// moment before (`GuardPolicy.judge`, unplaced: a screenshot's name plus a screenshot program's
/// read within 10 s).
final class BulkCopyTests: WatchDesktopTestCase {
    private func agent() throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox, display: desk.name)
    }

    /// Makes `made/burst/NAME` (scrot's capture scaled to 90%, never written unscaled anywhere)
    /// and eight ordinary images beside it; returns the scaled image's bytes.
    private func burst(scaledName name: String) throws -> [UInt8] {
        let folder = sandbox.path("made/burst")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try runTool("cd '\(sandbox.path("made"))' && scrot - | /usr/bin/convert - -resize 90% 'burst/\(name)'", display: desk.name)
        for index in 0..<8 {
            try sandbox.write("made/burst/photo-\(index).png", png: WatchDesktop.pattern(width: 200, height: 150, seed: 700 + UInt32(index)))
        }
        return try sandbox.bytes("made/burst/\(name)")
    }

    /// The scaled capture shows the protected row: its pixels there are not the fill.
    private func assertShowsTheVault(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws {
        let image = try PNGDecoder.decode(bytes, source: "the scaled capture")
        XCTAssertEqual(image.width, 576, file: file, line: line)
        let row = try XCTUnwrap(try desk.expectedRedactions().first, file: file, line: line).rect
        var black = 0
        for y in (row.y * 9 / 10 + 2)..<(row.maxY * 9 / 10 - 2) {
            for x in (row.x * 9 / 10 + 2)..<(row.maxX * 9 / 10 - 2) where image[x, y] & 0xFF_FFFF == 0 { black += 1 }
        }
        XCTAssertEqual(black, 0, "the scaled capture shows the vault's row unredacted", file: file, line: line)
    }

    private func assertPlaceholder(_ path: String, width: Int, height: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let image = try PNGDecoder.decode(try sandbox.bytes(path), source: path)
        XCTAssertEqual(image.width, width, file: file, line: line)
        XCTAssertEqual(image.height, height, file: file, line: line)
        var colours = Set<UInt32>()
        for y in 0..<image.height { for x in 0..<image.width { colours.insert(image[x, y] & 0xFF_FFFF) } }
        XCTAssertEqual(colours, [0x3C3F41, 0xF0F0F0], "only the placeholder's background and its words", file: file, line: line)
    }

    /// Named as a screenshot, it is urgent (never dropped by the burst's cap) and, unplaced, a
    /// screenshot by its name and scrot's read: set aside, a placeholder of its size in its
    /// place. The eight ordinary images are left byte for byte.
    func testAScaledScreenshotCopiedWithEightImagesIsSetAside() throws {
        let watch = try agent()
        let scaled = try burst(scaledName: "Screenshot-scaled.png")
        try assertShowsTheVault(scaled)
        try runTool("cp '\(sandbox.path("made/burst"))'/*.png '\(shots)/'", display: desk.name)
        XCTAssertTrue(watch.waitForLog("guard: \(shots)/Screenshot-scaled.png could not be redacted (",
                                       seconds: 10), watch.log)
        try assertPlaceholder("shots/Screenshot-scaled.png", width: 576, height: 360)
        XCTAssertTrue(watch.waitUntilSettled(examined: 9, seconds: 30), "\(watch.events)")
        for index in 0..<8 {
            XCTAssertEqual(try sandbox.bytes("shots/photo-\(index).png"), try sandbox.bytes("made/burst/photo-\(index).png"),
                           "photo-\(index).png is left as it was")
        }
        let list = try sandbox.run(["quarantine", "list", "--json"])
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.stdout)) as? [[String: Any]], list.stdoutText)
        XCTAssertEqual(entries.map { $0["path"] as? String }, [shots + "/Screenshot-scaled.png"])
        let restored = sandbox.path("made/restored.bin")
        XCTAssertEqual(try sandbox.run(["quarantine", "restore", try XCTUnwrap(entries.first?["id"] as? String), "-o", restored]).status, 0)
        XCTAssertEqual(try sandbox.bytes("made/restored.bin"), scaled, "the original is kept in quarantine")
    }

    /// The limit of the design, pinned so that a change shows: the same scaled capture with a
    /// photo's name is a weak image that cannot be placed and that nothing ties to a capture
    /// (convert never read the screen, and a screenshot program's read ties only files named as
    /// screenshots, or every photo saved after a screenshot would be set aside). It is examined,
    /// not found on the screen, and left as it is: its protected pixels stay.
    func testAScaledCaptureWithAPhotosNameIsLeftAsItIs() throws {
        let watch = try agent()
        let scaled = try burst(scaledName: "IMG_2041.png")
        try assertShowsTheVault(scaled)
        try runTool("cp '\(sandbox.path("made/burst"))'/*.png '\(shots)/'", display: desk.name)
        XCTAssertTrue(watch.waitForLog("left \(shots)/IMG_2041.png as it is: not found on the screen, and no program read the screen for it",
                                       seconds: 10), watch.log)
        XCTAssertEqual(try sandbox.bytes("shots/IMG_2041.png"), scaled, "left byte for byte, protected pixels and all")
    }
}
