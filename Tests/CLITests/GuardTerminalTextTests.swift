// Guard's second pass on a real terminal: an API key that xterm shows is found by OCR and covered in the scrot screenshot.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardScene
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class GuardTerminalTextTests: XCTestCase {
    /// xterm, light text on black as many terminals are set, shows an AWS access key after a
    /// command; scrot saves the screen into a watched folder. The first pass covers the corner
    /// rule at once, the text pass rewrites the file again with the key covered (OCR: a
    /// terminal has no accessible text), and the command before it stays readable.
    func testAnAPIKeyInATerminalIsCoveredInTheScreenshot() throws {
        for program in ["xterm", "scrot"] where !programExists(program) {
            throw FixtureError("\(program) is not installed (Debian package '\(program)')")
        }
        let sandbox = try Sandbox(self)
        let server = try VirtualDisplay(width: 800, height: 300)
        defer { server.stop() }
        let display = try Display(name: server.name)
        let script = "printf '%s\\n' '$ aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE' '$ ls' 'notes.txt  build  src'; "
            + "exec sleep 600"
        let terminal = try ChildProcess("xterm", ["-fa", "DejaVu Sans Mono", "-fs", "12", "-bg", "black", "-fg", "white",
                                                  "-geometry", "70x6+20+20", "-e", "sh", "-c", script],
                                        environment: ["DISPLAY": server.name, "HOME": sandbox.home.path], newSession: true)
        defer { terminal.stop() }
        let grabber = ScreenGrabber(display: display)
        // Shown once the key's line has its glyphs: light pixels on the first text row.
        let deadline = Date().addingTimeInterval(20)
        var shown = false
        while !shown, Date() < deadline {
            let screen = try grabber.captureScreen()
            shown = (300..<600).contains { x in (22..<40).contains { y in screen[x, y] & 0xFF_FFFF == 0xFF_FFFF } }
            if !shown { usleep(50_000) }
        }
        XCTAssertTrue(shown, "xterm showed no text")

        let shots = sandbox.path("shots")
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let regions = try sandbox.write("regions", text: "screen 30x20-0-0 fill=#00ff00\ntext key fill=#ff00ff\n")
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox,
                                   display: server.name)
        try runTool("scrot -o '\(shots)/Screenshot-terminal.png'", display: server.name)
        XCTAssertTrue(watch.waitForEvent("text-pass", seconds: 60), watch.log)
        let report = try XCTUnwrap(watch.nextReport(seconds: 30), watch.log)
        let text = try XCTUnwrap(report.json["text"] as? [[String: Any]], "the report lists the text covers: \(report.json)")
        let keys = text.filter { $0["kind"] as? String == "key" }
        XCTAssertEqual(keys.count, 1, "one key found: \(text)")
        let box = try XCTUnwrap(rect(try XCTUnwrap(keys.first?["geometry"] as? String, "\(text)")), "\(text)")
        XCTAssertTrue(box.y < 45 && box.maxY > 22 && box.x > 300, "the box is the first line's last word: \(box)")
        XCTAssertFalse(String(decoding: try Data(contentsOf: watch.stdoutURL), as: UTF8.self).contains("AKIAIOSFODNN7EXAMPLE"),
                       "the report never holds the text")

        let file = try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: shots + "/Screenshot-terminal.png"))),
                                         source: "Screenshot-terminal.png")
        var covered = 0
        for y in box.y..<box.maxY { for x in box.x..<box.maxX where file[x, y] & 0xFF_FFFF == 0xFF00FF { covered += 1 } }
        XCTAssertEqual(covered, box.area, "the key at \(box) is covered in the file")
        var command = 0
        for y in box.y..<box.maxY { for x in 22..<(box.x - 10) where file[x, y] & 0xFF_FFFF == 0xFF_FFFF { command += 1 } }
        XCTAssertGreaterThan(command, 100, "the command before the key is left readable")
        XCTAssertEqual(file[799, 299] & 0xFF_FFFF, 0x00FF00, "the corner rule's cover, from the first pass")
    }

    /// `WxH+X+Y` as the report writes a box.
    private func rect(_ geometry: String) -> Rect? {
        let numbers = geometry.split(whereSeparator: { $0 == "x" || $0 == "+" }).compactMap { Int($0) }
        guard numbers.count == 4 else { return nil }
        return Rect(x: numbers[2], y: numbers[3], width: numbers[0], height: numbers[1])
    }
}
