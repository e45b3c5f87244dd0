// A screen recording (ffmpeg x11grab) under `watch --shield`: announced on --json, and covered while it runs.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import XCTest

/// ffmpeg records the screen for 6 s at 10 fps into PNG frames in a folder no one watches, while
/// `shotguard watch --shield --no-guard --json` runs: standard output carries a recording line
/// when it starts and one when it stops, and every frame from 1.5 s on shows the rules' covers.
final class RecordingShieldTests: WatchDesktopTestCase {
    static let seconds = 6
    static let framesPerSecond = 10
    /// Frames from this one on (0-based: 1.5 s into the recording) must show the covers.
    static let firstCoveredFrame = 15

    func testAnFfmpegRecordingIsAnnouncedAndCoveredFromOneAndAHalfSecondsOn() throws {
        _ = try requireTool("ffmpeg", package: "ffmpeg")
        let screen = try desk.screen()
        let expected = try desk.expectedRedactions()
        let frames = sandbox.path("frames")
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
        let watch = try WatchAgent(["--regions", regions, "--shield", "--no-guard", "--no-clipboard", "--no-tools"],
                                   sandbox: sandbox, display: desk.name)
        try runTool("ffmpeg", ["-loglevel", "error", "-nostdin", "-f", "x11grab", "-draw_mouse", "0",
                               "-framerate", String(Self.framesPerSecond), "-video_size", "640x400", "-t", String(Self.seconds),
                               "-i", desk.name, "-f", "image2", frames + "/f%03d.png"], display: desk.name)

        // Every recording the log tells of has stopped (ffmpeg has exited), and standard output
        // carries a line for each start and stop, among the reports that may come: one of each.
        func count(_ text: String) -> Int { watch.log.components(separatedBy: text).count - 1 }
        XCTAssertTrue(watch.waitForLog(seconds: 10) { _ in count("recording stopped: ") >= max(1, count("recording: ffmpeg")) },
                      watch.log)
        var recording: [[String: Any]] = []
        var lines = 0
        while recording.filter({ $0["state"] as? String == "stopped" }).count < count("recording stopped: "), lines < 500,
              let line = watch.nextReport(seconds: 10)?.json {
            lines += 1
            if line["type"] as? String == "recording" { recording.append(line) }
        }
        XCTAssertEqual(recording.map { $0["state"] as? String }, ["started", "stopped"],
                       "one recording, announced once (ffmpeg's reads paused for more than 1 s if there are more): \(recording)")
        for line in recording {
            XCTAssertEqual(line["program"] as? String, "ffmpeg", "\(line)")
            XCTAssertEqual(line["geometry"] as? String, "640x400+0+0", "\(line)")
            XCTAssertNotNil(line["pid"] as? Int, "\(line)")
        }
        let framesRead = try XCTUnwrap(recording.last?["frames"] as? Int, "\(recording)")
        XCTAssertGreaterThanOrEqual(framesRead, Self.seconds * Self.framesPerSecond / 2, "frames read: \(recording)")
        XCTAssertTrue(watch.log.contains("covers lowered"), watch.log)

        // The frames: every one from 1.5 s on shows each protected rectangle in its fill.
        let names = try FileManager.default.contentsOfDirectory(atPath: frames).filter { $0.hasSuffix(".png") }.sorted()
        XCTAssertGreaterThan(names.count, Self.firstCoveredFrame, "ffmpeg wrote \(names.count) frames")
        var uncovered: [String] = []
        for name in names.dropFirst(Self.firstCoveredFrame) {
            let frame = try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: frames + "/" + name))), source: name)
            if let miss = firstUncovered(frame, expected) { uncovered.append("\(name): \(miss)") }
        }
        XCTAssertEqual(uncovered, [], "frames from 1.5 s on that show a protected pixel; the agent said: \(watch.log.suffix(1500))")
        // Once the recording stopped the covers are down: the screen shows the windows again.
        assertRedacted(try desk.screen(), origin: fullScreen, screen: screen, expected: [])
    }

    /// The first pixel of an expected rectangle that is not its fill, described; nil when all are.
    private func firstUncovered(_ frame: PixelBuffer, _ expected: [(rect: Rect, fill: UInt32)]) -> String? {
        for (rect, fill) in expected {
            for y in rect.y..<rect.maxY {
                for x in rect.x..<rect.maxX where frame[x, y] & 0xFF_FFFF != fill {
                    return "(\(x),\(y)) is \(hex(frame[x, y] & 0xFF_FFFF)), expected \(hex(fill))"
                }
            }
        }
        return nil
    }
}
