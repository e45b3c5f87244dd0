// The running agent on a private session bus: `status`, `pause` and `resume` steer it, busctl
// sees its interface, and a screenshot it redacts raises one notification on the fake server.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class WatchBusTests: WatchDesktopTestCase {
    private func agent(_ extra: [String] = [], on bus: AgentBus) throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"] + extra, sandbox: sandbox,
                       display: desk.name, environment: bus.environment)
    }

    /// Runs `shotguard` with the bus (and no display: the commands ask the agent).
    private func command(_ arguments: [String], on bus: AgentBus, file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        try sandbox.run(arguments, environment: bus.environment.mapValues { $0 }, file: file, line: line)
    }

    /// A scrot screenshot into the watched folder; its path.
    private func scrot(_ name: String) throws -> String {
        let path = shots + "/" + name
        try runTool("scrot -o '\(path)'", display: desk.name)
        return path
    }

    private func image(_ path: String) throws -> PixelBuffer {
        try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
    }

    private func json(_ result: RunResult, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any], result.stdoutText,
                      file: file, line: line)
    }

    /// Stops the agent as a desktop session does (SIGTERM) and waits for its clean exit.
    private func stop(_ watch: WatchAgent, file: StaticString = #filePath, line: UInt = #line) {
        watch.send(SIGTERM)
        XCTAssertEqual(watch.waitForExit(seconds: 10), 0, watch.log, file: file, line: line)
    }

    func testStatusPauseAndResumeSteerTheRunningAgent() throws {
        let bus = try AgentBus(self, notificationServer: true)
        // Grabbed before the agent starts: afterwards a read of the test's own is a screen read it sees.
        let screen = try desk.screen()
        let watch = try agent(["--shield", "--shield-key", "F9"], on: bus)

        let status = try command(["status"], on: bus)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertEqual(status.stderr, "")
        XCTAssertEqual(Array(status.lines.prefix(5)), [
            "protecting display \(desk.name)", "rules: 3 (1 screen, 2 window)", "sources: files, screen reads, shield",
            "screen reads: seen as they happen (RECORD)", "last report: none yet",
        ])
        XCTAssertTrue(status.lines.count == 7 && status.lines[5].hasPrefix("agent: shotguard ") && status.lines[6].isEmpty,
                      status.stdoutText)
        let protecting = try command(["status", "--json"], on: bus)
        XCTAssertEqual(protecting.status, 0, protecting.stderr)
        let object = try json(protecting)
        XCTAssertEqual(object["state"] as? String, "protecting")
        XCTAssertEqual(object["agent"] as? Bool, true)
        XCTAssertEqual(object["display"] as? String, desk.name)
        XCTAssertEqual(object["rules"] as? [String: Int], ["window": 2, "screen": 1])
        XCTAssertEqual(object["sources"] as? [String], ["files", "screen reads", "shield"])
        XCTAssertEqual(object["recordAvailable"] as? Bool, true)
        XCTAssertTrue(object["pausedUntil"] is NSNull, "\(object)")

        let asked = Date().timeIntervalSince1970
        let pause = try command(["pause", "10m"], on: bus)
        XCTAssertEqual(pause.status, 0, pause.stderr)
        XCTAssertTrue(pause.stdoutText.hasPrefix("paused until ") && pause.stdoutText.hasSuffix(
            " (10 minutes); 'shotguard resume' ends it sooner\n"), pause.stdoutText)
        XCTAssertTrue(watch.waitForEvent("pause") { $0["state"] as? String == "paused" && $0["seconds"] as? Int == 600 }, watch.log)
        let paused = try command(["status"], on: bus)
        XCTAssertEqual(paused.status, 1, "paused is not protecting")
        XCTAssertTrue(paused.lines.first?.hasPrefix("paused until ") == true
            && paused.lines.first?.hasSuffix(" from now); 'shotguard resume' ends it sooner") == true, paused.stdoutText)
        let pausedObject = try json(try command(["status", "--json"], on: bus))
        XCTAssertEqual(pausedObject["state"] as? String, "paused")
        let until = try XCTUnwrap(pausedObject["pausedUntil"] as? Int, "\(pausedObject)")
        XCTAssertTrue(until >= Int(asked) + 599 && until <= Int(Date().timeIntervalSince1970) + 601, "until \(until), asked at \(asked)")

        // While paused a screenshot is left exactly as scrot wrote it.
        let early = try scrot("paused.png")
        let earlyBytes = try Data(contentsOf: URL(fileURLWithPath: early))
        XCTAssertTrue(watch.waitForEvent("ignored") { $0["why"] as? String == "paused" }, "a signal was not followed: \(watch.log)")
        assertSameColours(try image(early), screen, "the screenshot taken while paused")
        // ...and the shield's key raises no cover.
        try runTool("xdotool key F9", display: desk.name)
        XCTAssertTrue(watch.waitForEvent("shield-key"), watch.log)
        XCTAssertEqual(watch.events("shield-key").map { $0["covers"] as? Int }, [0], watch.log)
        assertSameColours(try desk.screen(), screen, "the screen after the shield key while paused")

        let resume = try command(["resume"], on: bus)
        XCTAssertEqual(resume.status, 0, resume.stderr)
        XCTAssertEqual(resume.stdoutText, "resumed\n")
        XCTAssertTrue(watch.waitForEvent("pause") { $0["state"] as? String == "resumed" }, watch.log)
        XCTAssertEqual(try command(["status"], on: bus).lines.first, "protecting display \(desk.name)")
        XCTAssertEqual(try command(["resume"], on: bus).stdoutText, "was not paused\n")

        let late = try scrot("resumed.png")
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(report.json)")
        assertRedacted(try image(late), origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: early)), earlyBytes, "the paused screenshot's bytes")
        let last = try command(["status"], on: bus)
        XCTAssertTrue(last.lines.contains { $0.hasPrefix("last report: \(report.json["id"] as? String ?? "?") at ") }, last.stdoutText)

        // Paused, resumed, redacted: one notification, updated in place.
        XCTAssertTrue(bus.waitForNotify { $0["summary"] as? String == "Screenshot redacted" })
        stop(watch)
        let calls = try bus.callsSoFar().filter { $0["method"] as? String == "Notify" }
        XCTAssertEqual(calls.compactMap { $0["summary"] as? String },
                       ["Screenshot protection paused", "Screenshot protection resumed", "Screenshot redacted"])
        let id = try XCTUnwrap(calls.first?["id"] as? Int)
        XCTAssertEqual(calls.map { $0["id"] as? Int }, [id, id, id])
        XCTAssertEqual(calls.map { $0["replaces"] as? Int }, [0, id, id])
    }

    /// `pause 3s`: the agent resumes by itself when the time is up, says so, and guards again.
    func testAShortPauseEndsByItself() throws {
        let bus = try AgentBus(self, notificationServer: true)
        let screen = try desk.screen()
        let watch = try agent(on: bus)
        let monitor = try bus.monitor()
        defer { monitor.terminate() }
        let asked = Date().timeIntervalSince1970
        let pause = try command(["pause", "3s"], on: bus)
        XCTAssertEqual(pause.status, 0, pause.stderr)
        XCTAssertTrue(pause.stdoutText.hasSuffix(" (3 seconds); 'shotguard resume' ends it sooner\n"), pause.stdoutText)
        XCTAssertTrue(watch.waitForEvent("pause") { $0["state"] as? String == "paused" && $0["seconds"] as? Int == 3 }, watch.log)
        // The bus says when it ends, and then that it has.
        readOutput(of: [monitor]) { agentSignals(in: monitor).count >= 2 || monitor.isFinished }
        let signals = agentSignals(in: monitor)
        XCTAssertEqual(signals.map(\.member), ["Paused", "Resumed"], watch.log)
        let until = try XCTUnwrap(signals.first?.arguments.first as? Double)
        XCTAssertTrue(until >= asked + 2.9 && until <= Date().timeIntervalSince1970 + 3.1, "until \(until), asked at \(asked)")
        XCTAssertTrue(watch.waitForEvent("pause") { $0["state"] as? String == "resumed" }, "the pause did not end: \(watch.log)")
        XCTAssertTrue(bus.waitForNotify { $0["summary"] as? String == "Screenshot protection resumed" })
        let status = try command(["status"], on: bus)
        XCTAssertEqual(status.status, 0, status.stdoutText)
        XCTAssertEqual(status.lines.first, "protecting display \(desk.name)")

        let shot = try scrot("after-pause.png")
        XCTAssertNotNil(watch.nextReport(), watch.log)
        assertRedacted(try image(shot), origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
    }

    func testBusctlIntrospectShowsTheInterface() throws {
        let bus = try AgentBus(self, notificationServer: false)
        let watch = try agent(on: bus)
        let busctl = try requireTool("busctl", package: "systemd")
        let result = try runProgram(busctl, ["--user", "introspect", "--no-pager", "org.shotguard.Agent1", "/org/shotguard/Agent1"],
                                    environment: bus.bus.environment())
        XCTAssertEqual(result.status, 0, result.stderr)
        // NAME TYPE SIGNATURE RESULT/VALUE FLAGS: an interface's line, then its members' (the
        // standard interfaces of every object come too).
        var interface = ""
        var members: [String: [String]] = [:]
        for row in result.lines.map({ $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }) where row.count >= 4 {
            if row[1] == "interface" { interface = row[0] }
            if interface == "org.shotguard.Agent1", row[0].hasPrefix(".") { members[row[0]] = [row[1], row[2], row[3]] }
        }
        XCTAssertEqual(members, [
            ".Status": ["method", "-", "a{sv}"], ".Pause": ["method", "d", "d"], ".Resume": ["method", "-", "b"],
            ".Reload": ["method", "-", "s"], ".SendReports": ["method", "as", "asas"], ".ScreenshotReported": ["signal", "ss", "-"],
            ".Reported": ["signal", "ss", "-"], ".FileQuarantined": ["signal", "ss", "-"],
            ".RecordingStarted": ["signal", "sus", "-"], ".RecordingStopped": ["signal", "su", "-"], ".Paused": ["signal", "d", "-"],
            ".Resumed": ["signal", "-", "-"],
        ], result.stdoutText)
        stop(watch)
    }

    func testAScrotScreenshotUnderTheVaultRaisesOneNotification() throws {
        let bus = try AgentBus(self, notificationServer: true)
        let watch = try agent(on: bus)
        let monitor = try bus.monitor()
        defer { monitor.terminate() }
        _ = try scrot("one.png")
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertTrue(bus.waitForNotify { _ in true })
        readOutput(of: [monitor]) { !agentSignals(in: monitor).isEmpty || monitor.isFinished }
        let reported = agentSignals(in: monitor).first
        XCTAssertEqual(reported?.member, "ScreenshotReported")
        XCTAssertEqual(reported?.arguments.first as? String, report.json["id"] as? String)
        XCTAssertFalse((reported?.arguments.last as? String ?? "").isEmpty, "the signal says what guard did")
        stop(watch)
        let notify = try bus.callsSoFar().filter { $0["method"] as? String == "Notify" }
        XCTAssertEqual(notify.count, 1, "\(notify)")
        XCTAssertEqual(notify.first?["app"] as? String, "shotguard")
        XCTAssertEqual(notify.first?["summary"] as? String, "Screenshot redacted")
        XCTAssertEqual(notify.first?["body"] as? String, "2 areas covered in one.png")
        XCTAssertEqual(notify.first?["replaces"] as? Int, 0)
    }

    /// Three screenshots at once: each is redacted, and they make one notification (one capture
    /// event, one report); two more, each reported in turn, update that notification in place.
    func testABurstOfThreeScreenshotsIsOneNotification() throws {
        let bus = try AgentBus(self, notificationServer: true)
        let screen = try desk.screen()
        let watch = try agent(on: bus)
        try runTool("scrot -o '\(shots)/burst-1.png' && scrot -o '\(shots)/burst-2.png' && scrot -o '\(shots)/burst-3.png'",
                    display: desk.name)
        XCTAssertTrue(watch.waitForEvent("examined", count: 3, seconds: 20) { $0["file"] as? String == "rewritten" }, watch.log)
        for index in 1...3 {
            assertRedacted(try image("\(shots)/burst-\(index).png"), origin: fullScreen, screen: screen,
                           expected: try desk.expectedRedactions())
        }
        // The reports until every file of the burst is in one (its signals list them).
        var reports = 0
        var reported: Set<String> = []
        while reported.count < 3, let report = watch.nextReport() {
            reports += 1
            for signal in report.json["signals"] as? [[String: Any]] ?? [] {
                if let path = signal["detail"] as? String, path.hasPrefix(shots + "/burst-") { reported.insert(path) }
            }
        }
        XCTAssertEqual(reported.count, 3, "the burst's files in its reports: \(reported)")
        XCTAssertTrue(bus.waitForNotify { _ in true })
        let burst = bus.notifyCalls().count
        XCTAssertTrue((1...reports).contains(burst), "\(reports) reports, \(burst) notifications: \(bus.notifyCalls())")
        for index in 4...5 {
            _ = try scrot("burst-\(index).png")
            XCTAssertNotNil(watch.nextReport(), watch.log)
            XCTAssertTrue(bus.waitForNotify { $0["body"] as? String == "2 areas covered in burst-\(index).png" })
        }
        stop(watch)
        let notify = try bus.callsSoFar().filter { $0["method"] as? String == "Notify" }
        XCTAssertEqual(notify.count, burst + 2, "\(notify)")
        let id = try XCTUnwrap(notify.first?["id"] as? Int)
        XCTAssertEqual(notify.map { $0["id"] as? Int }, Array(repeating: id, count: notify.count), "one notification: \(notify)")
        XCTAssertEqual(notify.map { $0["replaces"] as? Int }, [0] + Array(repeating: id, count: notify.count - 1), "\(notify)")
        XCTAssertTrue(notify.allSatisfy { $0["summary"] as? String == "Screenshot redacted" }, "\(notify)")
    }

    func testNoNotifySendsNone() throws {
        let bus = try AgentBus(self, notificationServer: true)
        let watch = try agent(["--no-notify"], on: bus)
        let shot = try scrot("quiet.png")
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(report.json)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: shot))
        stop(watch)
        XCTAssertEqual(try bus.callsSoFar().count, 0, "no call reached the notification server")
    }

    /// No notification server on the bus: nothing fails, the agent guards and answers as before.
    func testWithoutANotificationServerNothingFails() throws {
        let bus = try AgentBus(self, notificationServer: false)
        let screen = try desk.screen()
        let watch = try agent(on: bus)
        let shot = try scrot("unnoticed.png")
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        assertRedacted(try image(shot), origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
        let status = try command(["status"], on: bus)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.lines.contains { $0.hasPrefix("last report: \(report.json["id"] as? String ?? "?") at ") }, status.stdoutText)
        stop(watch)
        XCTAssertEqual(watch.events("problem").count, 0, "no warning, no error: \(watch.log)")
    }
}
