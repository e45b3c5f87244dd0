// Screen recordings (ffmpeg x11grab at any rate) under the default agent: announced on --json, and at most their first frame shows a protected window.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import XCTest

/// ffmpeg records the screen into PNG frames in a folder no one watches, while `shotguard watch
/// --no-guard --json` runs with no shield option: the recordings' shield is on by default. The
/// frames are the ones ffmpeg itself read (not a file the agent could rewrite); at most one of
/// them shows a protected pixel, whatever the rate.
final class RecordingShieldTests: WatchDesktopTestCase {
    private func agent() throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--no-guard", "--no-clipboard", "--no-tools"], sandbox: sandbox, display: desk.name)
    }

    /// Records `frames` frames at `rate` frames a second of `size` at `origin` into a folder of
    /// its own; returns the frames, decoded, in order. One frame is one read: ffmpeg's default
    /// for a folder of images is a constant rate, which writes a frame read late twice or more
    /// (a loaded machine's first frames, `dup=2`), so the frames go out as read (`-fps_mode
    /// passthrough`).
    private func record(rate: String, frames: Int, size: String = "640x400", origin: String = "") throws -> [PixelBuffer] {
        _ = try requireTool("ffmpeg", package: "ffmpeg")
        let folder = sandbox.path("frames-\(rate)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try runTool("ffmpeg", ["-loglevel", "error", "-nostdin", "-f", "x11grab", "-draw_mouse", "0", "-framerate", rate,
                               "-video_size", size, "-i", desk.name + origin, "-frames:v", String(frames),
                               "-fps_mode", "passthrough", "-f", "image2", folder + "/f%03d.png"], display: desk.name)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
        return try names.map { try PNGDecoder.decode(try sandbox.bytes(at: folder + "/" + $0), source: $0) }
    }

    /// Regression: at 30 fps the first 3 to 12 frames showed the vault, at 60 fps 19, and at 1
    /// and 0.5 fps every frame (never counted as a recording). The covers now go up at the
    /// recorder's first read, on the agent's own thread: at most its first frame shows it.
    func testAtEveryRateAtMostTheFirstFrameShowsAProtectedWindow() throws {
        let watch = try agent()
        let expected = try desk.expectedRedactions()
        let downs = { watch.events.filter { $0["event"] as? String == "covers-shown" && $0["covers"] as? Int == 0 }.count }
        for (rate, frames) in [("0.5", 3), ("2", 5), ("10", 20), ("30", 45), ("60", 90)] {
            let before = downs()
            let read = try record(rate: rate, frames: frames)
            XCTAssertGreaterThanOrEqual(read.count, frames - 1, "\(rate) fps: ffmpeg wrote \(read.count) frames")
            let showing = FrameCount.showingProtected(read, expected)
            XCTAssertLessThanOrEqual(showing.count, 1, "\(rate) fps: frames \(showing) of \(read.count) show a protected pixel; \(watch.log.suffix(1500))")
            // Down once ffmpeg is gone; then the next rate starts from an uncovered screen.
            XCTAssertTrue(watch.waitForEvent("covers-shown") { _ in downs() > before }, "\(rate) fps: \(watch.log.suffix(800))")
        }
        // Each was a recording, announced when it started and stopped, with its program and area.
        XCTAssertTrue(watch.waitForEvent("recording", count: 10) { _ in true }, watch.log)
        var lines: [[String: Any]] = []
        while lines.count < 10, let line = watch.nextReport(seconds: 10, type: "recording")?.json { lines.append(line) }
        XCTAssertEqual(lines.map { $0["state"] as? String }, Array(repeating: ["started", "stopped"], count: 5).flatMap { $0 })
        for line in lines {
            XCTAssertEqual(line["program"] as? String, "ffmpeg", "\(line)")
            XCTAssertEqual(line["geometry"] as? String, "640x400+0+0", "\(line)")
        }
    }

    /// A recording of a region far from every protected rectangle covers nothing: the user's
    /// screen stays as it is (no cover went up for it), and it is still a recording.
    func testARegionRecordingFarFromTheRulesCoversNothing() throws {
        let watch = try agent()
        // 200x100 at 400,260: away from the vault's row (y 80..120) and the clock corner.
        let frames = try record(rate: "10", frames: 15, size: "200x100", origin: "+400,260")
        XCTAssertEqual(frames.count, 15)
        XCTAssertTrue(watch.waitForEvent("recording") { $0["state"] as? String == "started" }, watch.log)
        XCTAssertTrue(watch.waitForEvent("recording") { $0["state"] as? String == "stopped" }, watch.log)
        XCTAssertFalse(watch.events.contains { $0["event"] as? String == "covers" }, "no cover went up: \(watch.log)")
    }
}
