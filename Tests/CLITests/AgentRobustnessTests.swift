// The agent under awkward conditions: a vanishing display, a closed pipe, bursts.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest

final class AgentRobustnessTests: WatchDesktopTestCase {
    override class var serverHasRecord: Bool { false }

    /// shutter shows its window for seconds and captures when it goes: the file must be placed
    /// against the screen after the window (and its window manager frame) closed, not only the
    /// one when the event opened, nor one grabbed while the frame was still up.
    func testAToolWindowShownLongBeforeItsCaptureIsPlacedOnTheScreenAfterItCloses() throws {
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--tool-class", "FakeShutter"],
                                   sandbox: sandbox, display: desk.name)
        let tool = try PaintedWindow(display: desk.display, frame: Rect(x: 300, y: 60, width: 220, height: 150),
                                     content: WatchDesktop.pattern(width: 220, height: 150, seed: 21), instance: "fakeshutter",
                                     className: "FakeShutter", title: "Shutter")
        XCTAssertTrue(watch.waitForEvent("tool-window") { $0["tool"] as? String == "fakeshutter" && $0["state"] as? String == "shown" },
                      watch.log)
        tool.destroy()
        XCTAssertTrue(watch.waitForEvent("fresh-screen"), watch.log)
        let screen = try desk.screen()
        try runTool("scrot -o '\(shots)/shutter-1.png'", display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(seconds: 15), watch.log)
        XCTAssertEqual((report.json["image"] as? [String: Any])?["source"] as? String, "file", watch.log)
        XCTAssertTrue(report.json["note"] is NSNull, "placed as it is, not as an image that differs: \(report.json["note"] ?? "")")
        assertRedacted(report.image, origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
    }

    /// `watch --json | head -1`: the second report finds the pipe closed. The agent says so and
    /// stops; it is not killed by SIGPIPE.
    func testAClosedStandardOutputEndsTheAgentWithAMessage() throws {
        let binary = try shotguardBinary().path
        let status = sandbox.path("status")
        let log = sandbox.path("agent.err")
        let events = sandbox.path("agent.events")
        let command = "{ '\(binary)' watch --json --verbose --no-clipboard --no-tools --regions '\(regions)' --dir '\(shots)' "
            + "--spool '\(sandbox.path("spool"))' 2>'\(log)'; echo $? > '\(status)'; } | head -1 > '\(sandbox.path("first"))'"
        let changes = try FileChanges([try sandbox.write("agent.err", []), try sandbox.write("status", []),
                                       try sandbox.write("agent.events", [])])
        let pipeline = try ChildProcess("/bin/sh", ["-c", command],
                                        environment: ["DISPLAY": desk.name, "HOME": sandbox.home.path,
                                                      "XDG_CONFIG_HOME": sandbox.path(".config"), "SHOTGUARD_EVENTS": events],
                                        output: .standardError)
        // The agent's events, as WatchAgent reads them.
        let said = { (name: String) in self.text(events).contains("{\"event\":\"\(name)\"") }
        XCTAssertTrue(changes.wait(seconds: 10) { said("watching") }, text(log))
        try runTool("scrot -o '\(shots)/scrot-pipe-1.png'", display: desk.name)
        XCTAssertTrue(changes.wait(seconds: 10) { said("settled") }, text(log))
        try runTool("scrot -o '\(shots)/scrot-pipe-2.png'", display: desk.name)
        XCTAssertTrue(changes.wait(seconds: 15) { !self.text(status).isEmpty }, "the agent did not stop: \(text(log))")
        XCTAssertEqual(pipeline.waitForExit(), 0)
        XCTAssertTrue(text(log).contains("cannot print reports; stopping"), text(log))
        XCTAssertEqual(text(status).trimmingCharacters(in: .whitespacesAndNewlines), "0", "ended cleanly, not by SIGPIPE")
    }

    /// Signals are answered between the images of a burst, not after it: SIGHUP reloads
    /// before the burst is through, and SIGTERM stops the agent (after it examined what it
    /// held) with status 0. A burst of images that are not screenshots is bounded: the first
    /// `CandidateQueue.weakPerEvent` are examined, at most `weakPerSecond` a second, the rest are
    /// counted and left alone. (A hostile title cannot hold the loop either: `title~` matching
    /// has a budget, tested with the regions commands.)
    func testSignalsAreAnsweredBetweenTheImagesOfABurst() throws {
        let made = sandbox.path("made")
        // Window-sized images that are nowhere on the screen: each costs a search.
        let count = 150
        try writeImages(count, named: "photo-", width: 200, height: 150, firstSeed: 500)
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"],
                                   sandbox: sandbox, display: desk.name)
        try runTool("cp '\(made)'/*.png '\(shots)/'", display: desk.name)
        // The photos examined (and left) before the first event named `name`, or in all.
        let photos = shots + "/photo-"
        let photo = { (event: [String: Any]) in
            event["event"] as? String == "examined" && event["outcome"] as? String == "left"
                && (event["name"] as? String ?? "").hasPrefix(photos)
        }
        let examined = { (before: String?) -> Int in
            let events = watch.events
            let end = before.flatMap { name in events.firstIndex { $0["event"] as? String == name } } ?? events.endIndex
            return events[..<end].filter(photo).count
        }
        XCTAssertTrue(watch.wait(seconds: 30) { examined(nil) > 0 }, watch.log)
        watch.send(SIGHUP)
        XCTAssertTrue(watch.waitForEvent("rules", seconds: 30) { $0["state"] as? String == "reloaded" }, watch.log)
        XCTAssertLessThan(examined("rules"), 64, "SIGHUP waited for the whole burst: \(watch.log)")
        watch.send(SIGTERM)
        XCTAssertEqual(watch.waitForExit(seconds: 60), 0, watch.log)
        XCTAssertLessThan(examined("stopping"), 64, "SIGTERM waited for the whole burst: \(watch.log)")
        XCTAssertEqual(examined(nil), 64, "the first 64 of the burst were examined before the exit")
        // At least the rest: a file signalled again after the agent examined it, with another
        // size or time (the key of a file holds both), is a new image and is counted again.
        XCTAssertTrue(watch.events("settled").contains { ($0["unexamined"] as? Int ?? 0) >= count - 64 },
                      "the rest counted and left: \(watch.log)")
    }

    /// The X server dies while an event is open: the agent still writes the report of the
    /// screenshot in hand, then exits 1.
    func testLosingTheDisplayDuringAnEventStillReportsWhatIsInHand() throws {
        let server = try VirtualDisplay(width: 320, height: 200)
        let display = try Display(name: server.name)
        let vault = try PaintedWindow(display: display, frame: Rect(x: 20, y: 20, width: 100, height: 60),
                                      content: WatchDesktop.pattern(width: 100, height: 60, seed: 5), instance: "vault",
                                      className: "Vault", title: "Vault")
        defer { vault.destroy() }
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"],
                                   sandbox: sandbox, display: server.name)
        try runTool("scrot -o '\(shots)/scrot-lost.png'", display: server.name)
        XCTAssertTrue(watch.waitForRewrite(of: "\(shots)/scrot-lost.png"), watch.log)
        server.stop()
        XCTAssertEqual(watch.waitForExit(seconds: 10), 1, watch.log)
        XCTAssertEqual(watch.events("stopping").map { $0["why"] as? String }, ["display-lost"], watch.log)
        let report = try XCTUnwrap(watch.nextReport(seconds: 1), "the report of the screenshot in hand: \(watch.log)")
        XCTAssertEqual((report.json["image"] as? [String: Any])?["source"] as? String, "file")
        XCTAssertEqual((report.json["redactions"] as? [Any])?.count, 2)
    }

    /// `count` PNGs of pseudo-random pixels, `made/PREFIXn.png`, each with its own pattern.
    private func writeImages(_ count: Int, named prefix: String, width: Int, height: Int, firstSeed: UInt32) throws {
        for index in 0..<count {
            try sandbox.write("made/\(prefix)\(index).png",
                              png: WatchDesktop.pattern(width: width, height: height, seed: firstSeed + UInt32(index)))
        }
    }

    private func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }


    /// `VmHWM` of a running process, in KiB.
    private func peakMemoryKiB(of pid: Int32) -> Int? {
        let status = text("/proc/\(pid)/status")
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
}
