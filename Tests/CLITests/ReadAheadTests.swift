// Text rules: the agent reads the screen's text while nobody takes a screenshot, so a screenshot's text is covered from memory.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class ReadAheadTests: TextDesktopTestCase {
    /// An agent with one rule, `text card` in green, watching the folder `shots` (made here).
    private func agent(_ extra: [String] = []) throws -> (watch: WatchAgent, shots: String) {
        let shots = sandbox.path("shots")
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let regions = try sandbox.write("regions", text: "text card fill=#00ff00\n")
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"] + extra, sandbox: sandbox,
                                   display: desk.name)
        return (watch, shots)
    }

    private func coveredCard(in path: String) throws -> Int {
        let file = try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        let exact = try XCTUnwrap(desk.extents["card"])
        var filled = 0
        for y in exact.y..<exact.maxY { for x in exact.x..<exact.maxX where file[x, y] & 0xFF_FFFF == 0x00FF00 { filled += 1 } }
        return filled == exact.area ? filled : -filled
    }

    /// The agent reads the GTK window's text once it starts (nobody takes a screenshot), to the
    /// last line; scrot's screenshot of that screen is then read from memory as it begins (every
    /// line remembered), and the card number in its file is covered.
    func testTheScreenIsReadAheadAndAScreenshotOfItIsReadFromMemory() throws {
        let (watch, shots) = try agent()
        XCTAssertTrue(watch.waitForEvent("text-read", seconds: 60, where: { event in
            event["ahead"] as? Bool == true && (event["lines"] as? Int ?? 0) > 0 && event["left"] as? Int == 0
        }), watch.log)
        try runTool("scrot -o '\(shots)/read-ahead.png'", display: desk.name)
        XCTAssertTrue(watch.waitForEvent("text-pass", seconds: 60), watch.log)
        let begun = try XCTUnwrap(watch.events("text-read").last { $0["ahead"] as? Bool == false }, watch.log)
        let lines = try XCTUnwrap(begun["lines"] as? Int)
        XCTAssertGreaterThan(lines, 0, "\(begun)")
        XCTAssertEqual(begun["remembered"] as? Int, lines, "every line of the screenshot was read ahead: \(begun)")
        XCTAssertGreaterThan(try coveredCard(in: shots + "/read-ahead.png"), 0, "the card number is covered in the file")
    }

    /// With --no-read-ahead the screen is read only as a screenshot begins: nothing of it is
    /// remembered then, and the card number is covered all the same.
    func testWithoutReadAheadTheScreenIsReadAsAScreenshotBegins() throws {
        let (watch, shots) = try agent(["--no-read-ahead"])
        try runTool("scrot -o '\(shots)/not-ahead.png'", display: desk.name)
        XCTAssertTrue(watch.waitForEvent("text-pass", seconds: 60), watch.log)
        XCTAssertEqual(watch.events("text-read") { $0["ahead"] as? Bool == true }.count, 0, watch.log)
        let begun = try XCTUnwrap(watch.events("text-read").last { $0["ahead"] as? Bool == false }, watch.log)
        XCTAssertGreaterThan(begun["lines"] as? Int ?? 0, 0, "\(begun)")
        XCTAssertEqual(begun["remembered"] as? Int, 0, "a fresh agent remembers nothing: \(begun)")
        XCTAssertGreaterThan(try coveredCard(in: shots + "/not-ahead.png"), 0, "the card number is covered in the file")
    }
}
