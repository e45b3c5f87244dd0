// `shotguard shield -- COMMAND` on a desktop with RECORD: covered screenshots, covers down after the read, limits, status.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class ShieldCommandTests: WatchDesktopTestCase {
    private func shield(_ options: [String], _ command: [String]) -> [String] {
        ["shield", "--regions", regions] + options + ["--"] + command
    }

    private func run(_ options: [String], _ command: [String], events: String? = nil) throws -> RunResult {
        try sandbox.run(shield(options, command), environment: ["DISPLAY": desk.name, "SHOTGUARD_EVENTS": events])
    }

    /// Whether the covers went up (`covers` of them) and came down by `program`'s read.
    private func loweredByRead(of program: String, covers: Int, in events: [[String: Any]]) -> Bool {
        let up = EventFile.named("covers-up", in: events) { $0["covers"] as? Int == covers }
        let down = EventFile.named("covers-lowered", in: events) { $0["why"] as? String == "read" && $0["program"] as? String == program }
        return !up.isEmpty && !down.isEmpty
    }

    private func background(_ options: [String], _ command: [String]) throws -> BackgroundShotguard {
        try BackgroundShotguard(shield(options, command), sandbox: sandbox, display: desk.name)
    }

    /// A key binding's use, a hundred times: each screenshot shows every protected rectangle
    /// in its fill and every other pixel as the screen has it, and each time the covers came
    /// down after scrot's read (not at its exit).
    func testAHundredScrotScreenshotsAreAllCovered() throws {
        _ = try requireTool("scrot", package: "scrot")
        let screen = try desk.screen()
        let expected = try desk.expectedRedactions()
        var covered = 0
        for index in 1...100 {
            let path = shots + "/shot-\(index).png"
            let events = sandbox.path("shield-\(index).events")
            let result = try run(["--verbose"], ["scrot", "-o", path], events: events)
            XCTAssertEqual(result.status, 0, "run \(index): \(result.stderr)")
            XCTAssertTrue(loweredByRead(of: "scrot", covers: 2, in: EventFile.read(URL(fileURLWithPath: events))),
                          "run \(index): two covers up, down by scrot's read: \(result.stderr)")
            let image = try PNGDecoder.decode(try sandbox.bytes("shots/shot-\(index).png"), source: path)
            let failures = testRun?.failureCount ?? 0
            assertRedacted(image, origin: fullScreen, screen: screen, expected: expected)
            if testRun?.failureCount == failures { covered += 1 } else { break }
        }
        XCTAssertEqual(covered, 100, "screenshots covered of 100")
        assertRedacted(try desk.screen(), origin: fullScreen, screen: screen, expected: [])
    }

    /// The covers come down once the command has read the screen, while it runs on; SIGTERM to
    /// shotguard reaches the command, whose status shotguard exits with.
    func testTheCoversComeDownAfterTheReadWhileTheCommandRunsOn() throws {
        _ = try requireTool("scrot", package: "scrot")
        let screen = try desk.screen()
        let gate = try Gate(sandbox)
        let shot = shots + "/during.png"
        let running = try background(["--verbose"], ["sh", "-c", "scrot -o \"$1\" && read line < \"$2\" && exec sleep 60", "sh", shot,
                                                     gate.path])
        XCTAssertTrue(running.waitForEvent("covers-lowered"), running.stderr)
        XCTAssertTrue(loweredByRead(of: "scrot", covers: 2, in: running.events), running.stderr)
        assertRedacted(try desk.screen(), origin: fullScreen, screen: screen, expected: [])
        // The gate opens once the command reads it: scrot has written its file by then.
        try gate.open()
        assertRedacted(try sandbox.image("shots/during.png"), origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
        running.send(SIGTERM)
        XCTAssertEqual(running.waitForExit(), 128 + SIGTERM, "the command was ended by the SIGTERM passed on: \(running.stderr)")
    }

    /// Until the command reads, the covers stay up, whoever else reads the screen (this test).
    func testTheCoversStayUpUntilTheCommandExitsWhenItReadsNothing() throws {
        let screen = try desk.screen()
        let gate = try Gate(sandbox)
        let running = try background(["--verbose"], ["sh", "-c", "read line < \"$1\"; exit 7", "sh", gate.path])
        XCTAssertTrue(running.waitForEvent("covers-up") { $0["covers"] as? Int == 2 }, running.stderr)
        assertRedacted(try desk.screen(), origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
        assertRedacted(try desk.screen(), origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
        try gate.open()
        XCTAssertEqual(running.waitForExit(), 7, running.stderr)
        XCTAssertEqual(EventFile.named("covers-lowered", in: running.events).map { $0["why"] as? String }, ["exited"],
                       "down as sh exited: \(running.stderr)")
        assertRedacted(try desk.screen(), origin: fullScreen, screen: screen, expected: [])
    }

    /// --limit lowers the covers of a command that has not read the screen, and it runs on.
    func testTheLimitLowersTheCoversAndTheCommandRunsOn() throws {
        let screen = try desk.screen()
        let gate = try Gate(sandbox)
        let running = try background(["--limit", "0.5"], ["sh", "-c", "read line < \"$1\"", "sh", gate.path])
        XCTAssertTrue(running.waitForEvent("covers-lowered") { $0["why"] as? String == "limit" }, running.stderr)
        assertRedacted(try desk.screen(), origin: fullScreen, screen: screen, expected: [])
        XCTAssertNil(running.waitForExit(seconds: 0), "the command runs on")
        try gate.open()
        XCTAssertEqual(running.waitForExit(), 0, running.stderr)
    }

    /// --key-wait: with a key held (a binding on the press), the command starts only once it
    /// is released; the covers are up meanwhile.
    func testKeyWaitRunsTheCommandOnceTheKeyIsReleased() throws {
        let screen = try desk.screen()
        let started = sandbox.path("started")
        try runTool("xdotool", ["keydown", "Shift_L"], display: desk.name)
        var held = true
        defer { if held { try? runTool("xdotool", ["keyup", "Shift_L"], display: desk.name) } }
        let running = try background(["--key-wait", "--verbose"], ["touch", started])
        XCTAssertTrue(running.waitForEvent("covers-up") { $0["covers"] as? Int == 2 }, running.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: started), "the command ran with the key held: \(running.stderr)")
        assertRedacted(try desk.screen(), origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
        try runTool("xdotool", ["keyup", "Shift_L"], display: desk.name)
        held = false
        XCTAssertEqual(running.waitForExit(), 0, running.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: started), running.stderr)
        XCTAssertEqual(EventFile.named("key-wait", in: running.events).map { $0["released"] as? Bool }, [true], running.stderr)
    }

    func testExitStatusesAndErrors() throws {
        let status = try run([], ["sh", "-c", "exit 7"])
        XCTAssertEqual(status.status, 7, status.stderr)
        XCTAssertEqual(status.stderr, "")
        let missing = try run([], ["shotguard-no-such-program"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "shotguard: shield: cannot start shotguard-no-such-program: no such program in PATH\n")
        let none = try sandbox.run(["shield", "--regions", regions], environment: ["DISPLAY": desk.name])
        XCTAssertEqual(none.status, 2)
        XCTAssertEqual(none.stderr, "shotguard: shield: missing COMMAND (expected e.g. 'shotguard shield -- scrot ~/shot.png')\n")
        let limit = try run(["--limit", "0"], ["true"])
        XCTAssertEqual(limit.status, 2)
        XCTAssertTrue(limit.stderr.hasPrefix("shotguard: shield: --limit '0' is not a number of seconds"), limit.stderr)
    }
}
