// Bursts of images on a desktop whose X server has RECORD: old screenshots copied in are left alone, the real one is guarded.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class BurstTests: WatchDesktopTestCase {
    /// A copy of many old screenshots at once, then a real one: no program read the screen for
    /// the copies, so each is left exactly as it was — none quarantined, none kept in memory —
    /// while the screenshot scrot takes among them is rewritten.
    func testACopyOfOldScreenshotsIsLeftAloneAndTheRealOneGuarded() throws {
        let made = sandbox.path("made")
        let count = 120
        for index in 0..<count {
            try sandbox.write("made/Screenshot-old-\(index).png",
                              png: WatchDesktop.pattern(width: 640, height: 400, seed: 100 + UInt32(index)))
        }
        let sample = try sandbox.bytes("made/Screenshot-old-0.png")
        XCTAssertGreaterThan(sample.count, 500_000, "incompressible, like a busy screen")
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"],
                                   sandbox: sandbox, display: desk.name)
        let screen = try desk.screen()
        try runTool("cp '\(made)'/*.png '\(shots)/' && scrot -o '\(shots)/scrot-in-burst.png'", display: desk.name)
        XCTAssertTrue(watch.waitForRewrite(of: "\(shots)/scrot-in-burst.png", seconds: 30), watch.log)
        let rewritten = try PNGDecoder.decode(try sandbox.bytes("shots/scrot-in-burst.png"), source: "scrot-in-burst.png")
        assertRedacted(rewritten, origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
        // Each left as it was: unopened (the burst's shortcut) or examined and left.
        let prefix = shots + "/Screenshot-old-"
        let old = { (event: [String: Any]) in (event["name"] as? String ?? "").hasPrefix(prefix) }
        XCTAssertTrue(watch.wait(seconds: 60) {
            watch.events("left", where: old).count
                + watch.events("examined") { old($0) && $0["outcome"] as? String == "left" }.count >= count
        }, watch.log)
        for index in [0, 7, 119] {
            XCTAssertEqual(try sandbox.bytes("shots/Screenshot-old-\(index).png"), try sandbox.bytes("made/Screenshot-old-\(index).png"),
                           "left as it was")
        }
        let quarantined = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.path(".local/state/shotguard/quarantine"))) ?? []
        XCTAssertEqual(quarantined, [], "nothing quarantined")
        // Held as paths, not bytes: the peak stays far below the burst's 90 MB of files.
        let peak = try XCTUnwrap(peakMemoryKiB(of: watch.process.processIdentifier))
        XCTAssertLessThan(peak, 80 * 1024, "peak resident memory \(peak) KiB")
    }

    /// `VmHWM` of a running process, in KiB.
    private func peakMemoryKiB(of pid: Int32) -> Int? {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
}
