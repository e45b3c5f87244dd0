// The agent's service on a real dbus-daemon, called from outside by busctl and gdbus.
import Foundation
import ShotguardBase
import ShotguardBus
import ShotguardTestSupport
import XCTest

final class AgentServiceTests: XCTestCase {
    private func busctl(_ arguments: [String], _ agent: ServedAgent, _ bus: PrivateBus,
                        file: StaticString = #filePath, line: UInt = #line) throws -> PipedProcess {
        try runServing("busctl", ["--user", "--json=short"] + arguments, serving: [agent.bus], environment: bus.environment(),
                       file: file, line: line)
    }

    private func call(_ method: String, _ agent: ServedAgent, _ bus: PrivateBus, _ arguments: [String] = [],
                      file: StaticString = #filePath, line: UInt = #line) throws -> PipedProcess {
        try busctl(["call", "--", AgentInterface.busName, AgentInterface.objectPath, AgentInterface.name, method] + arguments,
                   agent, bus, file: file, line: line)
    }

    /// busctl's JSON reply: `{"type": SIGNATURE, "data": [VALUES]}`.
    private func reply(_ process: PipedProcess, file: StaticString = #filePath, line: UInt = #line) throws -> (String, [Any]) {
        XCTAssertEqual(process.exitStatus, 0, "\(process.label): \(process.stderrText)", file: file, line: line)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(process.stdout)) as? [String: Any],
                                   process.stdoutText, file: file, line: line)
        return (object["type"] as? String ?? "", object["data"] as? [Any] ?? [])
    }

    func testStatusCarriesTheAgentsState() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        let (type, data) = try reply(try call("Status", agent, bus))
        XCTAssertEqual(type, "a{sv}")
        let status = try XCTUnwrap(data.first as? [String: [String: Any]])
        func value(_ key: String) -> Any? { status[key]?["data"] }
        XCTAssertEqual(value("state") as? String, "protecting")
        XCTAssertEqual(value("rules") as? [String: Int], ["window": 2, "field": 1])
        XCTAssertEqual(value("sources") as? [String], ["files", "clipboard", "tool windows"])
        XCTAssertEqual(value("recordAvailable") as? Bool, true)
        XCTAssertEqual(value("display") as? String, ":7")
        XCTAssertEqual(value("lastReportId") as? String, "20261203-101502-120")
        XCTAssertEqual(value("lastReportTime") as? Double, 1_764_756_902)
        XCTAssertEqual(value("lastReportOutcome") as? String, "redacted 2 areas")
        XCTAssertNil(status["pausedUntil"], "no pause, no end of one")
        XCTAssertNil(status["whyOff"])
        XCTAssertEqual(status["rules"]?["type"] as? String, "a{su}")
        XCTAssertEqual(agent.control.calls, ["status"])
    }

    func testStatusOfAnAgentThatProtectsNothingSaysWhy() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        agent.control.currentStatus.protection = .off(why: "no regions file at ~/.config/shotguard/regions")
        let status = try XCTUnwrap(try reply(try call("Status", agent, bus)).1.first as? [String: [String: Any]])
        XCTAssertEqual(status["state"]?["data"] as? String, "off")
        XCTAssertEqual(status["whyOff"]?["data"] as? String, "no regions file at ~/.config/shotguard/regions")
    }

    func testPauseForTenMinutesThenResume() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        let before = now()
        let (type, data) = try reply(try call("Pause", agent, bus, ["d", "600"]))
        XCTAssertEqual(type, "d")
        let until = try XCTUnwrap(data.first as? Double)
        XCTAssertGreaterThanOrEqual(until, before + 600)
        XCTAssertEqual(agent.control.calls, ["pause 600.0"])

        let status = try XCTUnwrap(try reply(try call("Status", agent, bus)).1.first as? [String: [String: Any]])
        XCTAssertEqual(status["state"]?["data"] as? String, "paused")
        XCTAssertEqual(status["pausedUntil"]?["data"] as? Double, until)

        XCTAssertEqual(try reply(try call("Resume", agent, bus)).1.first as? Bool, true)
        XCTAssertEqual(try reply(try call("Resume", agent, bus)).1.first as? Bool, false, "nothing left to resume")
        XCTAssertEqual(agent.control.calls, ["pause 600.0", "status", "resume", "resume"])
    }

    func testGdbusPausesUntilResumeWithZero() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        let pause = try runServing("gdbus", ["call", "--session", "--dest", AgentInterface.busName, "--object-path",
                                             AgentInterface.objectPath, "--method", "\(AgentInterface.name).Pause", "0"],
                                   serving: [agent.bus], environment: bus.environment())
        XCTAssertEqual(pause.exitStatus, 0, pause.stderrText)
        XCTAssertEqual(pause.stdoutText, "(0.0,)\n", "0 answers 0: until Resume")
        XCTAssertEqual(agent.control.calls, ["pause 0.0"])
        XCTAssertEqual(agent.control.currentStatus.protection, .paused(until: nil))
    }

    func testRefusedPauseAnswersTheAgentsSentence() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        agent.control.pauseAnswer = .refused("pausing is locked by the administrator's policy")
        let pause = try runServing("gdbus", ["call", "--session", "--dest", AgentInterface.busName, "--object-path",
                                             AgentInterface.objectPath, "--method", "\(AgentInterface.name).Pause", "600"],
                                   serving: [agent.bus], environment: bus.environment())
        XCTAssertNotEqual(pause.exitStatus, 0)
        XCTAssertTrue(pause.stderrText.contains(AgentInterface.refusedError), pause.stderrText)
        XCTAssertTrue(pause.stderrText.contains("pausing is locked by the administrator's policy"), pause.stderrText)
        XCTAssertEqual(agent.control.currentStatus.protection, .protecting)
    }

    func testPauseRefusesNegativeOrEndlessSecondsBeforeAskingTheAgent() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        for seconds in ["-1", "86401", "inf"] {
            let pause = try call("Pause", agent, bus, ["d", seconds])
            XCTAssertNotEqual(pause.exitStatus, 0, seconds)
            XCTAssertTrue(pause.stderrText.contains("Pause takes 0 (until Resume) or a number of seconds up to 86400"),
                          "\(seconds): \(pause.stderrText)")
        }
        XCTAssertEqual(agent.control.calls, [], "the agent was never asked")
    }

    func testReloadAnswersTheSummaryOrTheError() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        XCTAssertEqual(try reply(try call("Reload", agent, bus)).1.first as? String, "3 rules: 2 windows, 1 field")
        agent.control.reloadAnswer = .failed("regions:4:8: unknown target 'windw' (expected 'window', 'screen', 'monitor', 'field' "
            + "or 'text', the first four optionally after 'allow')")
        let failed = try call("Reload", agent, bus)
        XCTAssertNotEqual(failed.exitStatus, 0)
        XCTAssertTrue(failed.stderrText.contains("regions:4:8: unknown target 'windw'"), failed.stderrText)
        XCTAssertEqual(agent.control.calls, ["reload", "reload"])
    }

    func testAgentThatIsGoneAnswersUnavailable() throws {
        let bus = try PrivateBus(self)
        let connection = try SessionBus(address: bus.address)
        var control: FakeControl? = FakeControl()
        let service = try AgentBusService(bus: connection, control: control!)
        control = nil
        let status = try runServing("busctl", ["--user", "call", AgentInterface.busName, AgentInterface.objectPath,
                                               AgentInterface.name, "Status"], serving: [connection], environment: bus.environment())
        XCTAssertNotEqual(status.exitStatus, 0)
        XCTAssertTrue(status.stderrText.contains("the agent is stopping"), status.stderrText)
        withExtendedLifetime(service) {}
    }

    func testUnknownMethodIsRefusedByTheBusLibrary() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        let call = try call("Shutdown", agent, bus)
        XCTAssertNotEqual(call.exitStatus, 0)
        XCTAssertTrue(call.stderrText.contains("Unknown method") || call.stderrText.contains("UnknownMethod"), call.stderrText)
        XCTAssertEqual(agent.control.calls, [])
    }
}
