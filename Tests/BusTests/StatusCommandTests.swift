// `shotguard status`, `pause` and `resume` against the agent's service on a real session bus.
import Foundation
import ShotguardBase
import ShotguardBus
import ShotguardTestSupport
import XCTest

final class StatusCommandTests: XCTestCase {
    private func shotguard(_ arguments: [String], _ agent: ServedAgent?, _ bus: PrivateBus, environment: [String: String] = [:],
                           file: StaticString = #filePath, line: UInt = #line) throws -> PipedProcess {
        try runServing(try shotguardBinary(), arguments, serving: agent.map { [$0.bus] } ?? [],
                       environment: bus.environment(environment), file: file, line: line)
    }

    func testStatusOfAProtectingAgent() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        let status = try shotguard(["status"], agent, bus)
        XCTAssertEqual(status.exitStatus, 0, status.stderrText)
        XCTAssertEqual(status.stderrText, "")
        XCTAssertEqual(status.stdoutText.split(separator: "\n"), [
            "protecting display :7",
            "rules: 3 (1 field, 2 window)",
            "sources: files, clipboard, tool windows",
            "screen reads: seen as they happen (RECORD)",
            "last report: 20261203-101502-120 at 2025-12-03 10:15, redacted 2 areas",
            "agent: shotguard 0.1.0",
        ])
    }

    func testStatusWhilePausedSaysUntilWhenAndExitsOne() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        let until = (now() / 60).rounded(.down) * 60 + 3600
        agent.control.currentStatus.protection = .paused(until: until)
        let status = try shotguard(["status"], agent, bus)
        XCTAssertEqual(status.exitStatus, 1, "paused is not protecting")
        XCTAssertEqual(status.stderrText, "", "the output explains the status")
        let first = String(status.stdoutText.split(separator: "\n").first ?? "")
        XCTAssertTrue(first.hasPrefix("paused until \(clock(until)) ("), first)
        XCTAssertTrue(first.hasSuffix(" from now); 'shotguard resume' ends it sooner"), first)

        agent.control.currentStatus.protection = .paused(until: nil)
        XCTAssertEqual(try shotguard(["status"], agent, bus).stdoutText.split(separator: "\n").first,
                       "paused until 'shotguard resume'")
    }

    func testStatusOfAnAgentThatProtectsNothing() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        agent.control.currentStatus = AgentStatus(protection: .off(why: "no regions file: nothing is redacted"))
        let status = try shotguard(["status"], agent, bus)
        XCTAssertEqual(status.exitStatus, 1)
        XCTAssertEqual(status.stdoutText.split(separator: "\n"), [
            "off: no regions file: nothing is redacted", "rules: 0", "sources: none",
            "screen reads: not seen (the X server has no RECORD)", "last report: none yet",
        ])
    }

    func testStatusJSONIsOneObject() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        agent.control.currentStatus.protection = .paused(until: 1_764_760_000)
        let status = try shotguard(["status", "--json"], agent, bus)
        XCTAssertEqual(status.exitStatus, 1)
        XCTAssertEqual(status.stdoutText.filter { $0 == "\n" }.count, 1, "one line")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(status.stdout)) as? [String: Any])
        XCTAssertEqual(object["state"] as? String, "paused")
        XCTAssertEqual(object["agent"] as? Bool, true)
        XCTAssertEqual(object["pausedUntil"] as? Int, 1_764_760_000)
        XCTAssertEqual(object["pausedUntilIso8601"] as? String, "2025-12-03T11:06:40.000Z")
        XCTAssertEqual(object["rules"] as? [String: Int], ["window": 2, "field": 1])
        XCTAssertEqual(object["sources"] as? [String], ["files", "clipboard", "tool windows"])
        XCTAssertEqual(object["recordAvailable"] as? Bool, true)
        XCTAssertEqual(object["display"] as? String, ":7")
        let report = try XCTUnwrap(object["lastReport"] as? [String: Any])
        XCTAssertEqual(report["id"] as? String, "20261203-101502-120")
        XCTAssertEqual(report["time"] as? Int, 1_764_756_902)
        XCTAssertEqual(report["outcome"] as? String, "redacted 2 areas")
        XCTAssertTrue(object["why"] is NSNull)
    }

    /// The recordings running travel in Status (a(susdsub)) and are listed, one line each.
    func testRecordingsAreListed() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        let since = (now() / 60).rounded(.down) * 60
        agent.control.currentStatus.recordings = [
            AgentStatus.Recording(program: "firefox", pid: 4242, means: "CopyArea", geometry: "1920x1080+0+0", since: since, covers: 2,
                                  trusted: false),
            AgentStatus.Recording(program: "obs", pid: nil, means: "NameWindowPixmap", geometry: nil, since: since, covers: 0, trusted: true),
        ]
        let status = try shotguard(["status"], agent, bus)
        XCTAssertEqual(status.exitStatus, 0, status.stderrText)
        let time = CalendarTime(since)
        let clock = "\(CalendarTime.pad(time.hour)):\(CalendarTime.pad(time.minute))"  // today: the hour alone
        XCTAssertEqual(status.stdoutText.split(separator: "\n").filter { $0.hasPrefix("recording: ") }, [
            "recording: firefox (pid 4242) since \(clock), CopyArea of 1920x1080+0+0: 2 protected areas covered",
            "recording: obs since \(clock), NameWindowPixmap: trusted by the rules, nothing covered",
        ])
        let json = try shotguard(["status", "--json"], agent, bus)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])
        let recordings = try XCTUnwrap(object["recordings"] as? [[String: Any]])
        XCTAssertEqual(recordings.map { $0["program"] as? String }, ["firefox", "obs"])
        XCTAssertEqual(recordings.first?["pid"] as? Int, 4242)
        XCTAssertTrue(recordings.last?["pid"] is NSNull)
        XCTAssertEqual(recordings.first?["covers"] as? Int, 2)
        XCTAssertEqual(recordings.last?["trusted"] as? Bool, true)
        XCTAssertEqual(recordings.first?["since"] as? Int, Int(since))
    }

    func testPauseForTenMinutesThenResume() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        let pause = try shotguard(["pause", "10m"], agent, bus)
        XCTAssertEqual(pause.exitStatus, 0, pause.stderrText)
        guard case .paused(let until?) = agent.control.currentStatus.protection else {
            return XCTFail("the agent was not paused: \(agent.control.currentStatus.protection)")
        }
        XCTAssertEqual(pause.stdoutText, "paused until \(clock(until)) (10 minutes); 'shotguard resume' ends it sooner\n")
        let resume = try shotguard(["resume"], agent, bus)
        XCTAssertEqual(resume.exitStatus, 0, resume.stderrText)
        XCTAssertEqual(resume.stdoutText, "resumed\n")
        XCTAssertEqual(try shotguard(["resume"], agent, bus).stdoutText, "was not paused\n")
        XCTAssertEqual(agent.control.calls, ["pause 600.0", "resume", "resume"])
    }

    func testPauseDurations() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        for (arguments, seconds) in [([], 600.0), (["90s"], 90), (["1h"], 3600), (["1h30m"], 5400), (["24h"], 86400),
                                     (["0"], 0), (["0s"], 0), (["0m"], 0), (["--until-resume"], 0)] {
            let pause = try shotguard(["pause"] + arguments, agent, bus)
            XCTAssertEqual(pause.exitStatus, 0, "\(arguments): \(pause.stderrText)")
            XCTAssertEqual(agent.control.calls.last, "pause \(seconds)", "\(arguments)")
            if seconds == 0 { XCTAssertEqual(pause.stdoutText, "paused until 'shotguard resume'\n") }
        }
    }

    func testPauseRefusesWhatIsNotADuration() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        for word in ["10", "10x", "25h", "1h1h", "m", "1.5h"] {
            let pause = try shotguard(["pause", word], agent, bus)
            XCTAssertEqual(pause.exitStatus, 2, word)
            XCTAssertEqual(pause.stderrText, "shotguard: pause: '\(word)' is not a duration (expected a number with h, m or s, "
                + "such as 90s, 10m or 1h30m, at most 24h; 0 pauses until 'shotguard resume')\n")
        }
        let both = try shotguard(["pause", "10m", "--until-resume"], agent, bus)
        XCTAssertEqual(both.exitStatus, 2)
        XCTAssertEqual(both.stderrText, "shotguard: pause: give DURATION or --until-resume, not both\n")
        XCTAssertEqual(agent.control.calls, [], "the agent was never asked")
    }

    func testRefusedPauseExitsOneWithTheAgentsSentence() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        agent.control.pauseAnswer = .refused("pausing is locked by the administrator's policy")
        let pause = try shotguard(["pause"], agent, bus)
        XCTAssertEqual(pause.exitStatus, 1)
        XCTAssertEqual(pause.stdoutText, "")
        XCTAssertEqual(pause.stderrText, "shotguard: pause: refused: pausing is locked by the administrator's policy\n")
    }

    /// Local HH:MM, as the commands print it (the tests run with TZ=UTC).
    private func clock(_ seconds: Double) -> String {
        let time = CalendarTime(seconds, utc: true)
        let today = CalendarTime(utc: true)
        let hour = "\(CalendarTime.pad(time.hour)):\(CalendarTime.pad(time.minute))"
        guard (time.year, time.month, time.day) != (today.year, today.month, today.day) else { return hour }
        return "\(time.year)-\(CalendarTime.pad(time.month))-\(CalendarTime.pad(time.day)) \(hour)"
    }
}
