// A private session bus for an agent under test, with the fake notification server on it when
// asked: what `shotguard status`, `pause` and `resume` reach, and the notifications the agent sent.
import Foundation
import ShotguardTestSupport
import XCTest

/// A `dbus-daemon` of the test's own and, when asked, Tests/Scripts/notification-server.py
/// owning org.freedesktop.Notifications on it. The agent and the commands are given the bus in
/// `environment`.
final class AgentBus {
    let bus: PrivateBus
    let notifications: PipedProcess?

    init(_ test: XCTestCase, notificationServer: Bool, serverArguments: [String] = [], file: StaticString = #filePath,
         line: UInt = #line) throws {
        bus = try PrivateBus(test, file: file, line: line)
        notifications = notificationServer
            ? try startFakeServer("notification-server.py", serverArguments, on: bus, file: file, line: line) : nil
    }

    deinit { notifications?.terminate() }

    /// What an agent or a command needs to find this bus.
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": bus.address] }

    /// The Notify calls the server recorded so far, in order.
    func notifyCalls() -> [[String: Any]] {
        notifications.map { records(of: $0).filter { $0["method"] as? String == "Notify" } } ?? []
    }

    /// Every call the server recorded so far.
    func calls() -> [[String: Any]] {
        notifications.map { records(of: $0).filter { $0["method"] != nil } } ?? []
    }

    /// Waits until the server recorded a Notify that `matches`; false (and a failure) when none
    /// comes.
    @discardableResult
    func waitForNotify(file: StaticString = #filePath, line: UInt = #line, _ matches: @escaping ([String: Any]) -> Bool) -> Bool {
        guard let notifications else { return false }
        return readOutput(of: [notifications], file: file, line: line) { self.notifyCalls().contains(where: matches) }
    }

    /// Every call the server got before now: a call of the test's own (GetServerInformation,
    /// through busctl) goes through the bus after anything an agent that already exited sent,
    /// so once the server recorded it, its output holds every earlier call.
    func callsSoFar(file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        guard let notifications else { return [] }
        let before = records(of: notifications).filter { $0["method"] as? String == "GetServerInformation" }.count
        let busctl = try requireTool("busctl", package: "systemd", file: file, line: line)
        let call = try runProgram(busctl, ["--user", "call", "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                           "org.freedesktop.Notifications", "GetServerInformation"],
                                  environment: bus.environment(), file: file, line: line)
        XCTAssertEqual(call.status, 0, "busctl: \(call.stderr)", file: file, line: line)
        readOutput(of: [notifications], file: file, line: line) {
            records(of: notifications).filter { $0["method"] as? String == "GetServerInformation" }.count > before
        }
        return records(of: notifications).filter { ($0["method"] as? String).map { $0 != "GetServerInformation" } ?? false }
    }

    /// A `busctl monitor` of the agent's name, once the bus has made it a monitor (busctl says
    /// so on standard error): every signal the agent emits afterwards reaches it.
    func monitor(file: StaticString = #filePath, line: UInt = #line) throws -> PipedProcess {
        _ = try requireTool("busctl", package: "systemd", file: file, line: line)
        let monitor = try PipedProcess("busctl", ["--user", "--json=short", "monitor", "org.shotguard.Agent1"],
                                       environment: bus.environment())
        readOutput(of: [monitor], file: file, line: line) {
            monitor.stderrText.contains("Monitoring bus message stream") || monitor.isFinished
        }
        return monitor
    }
}

/// The signals of the agent's interface that `monitor` printed so far: member and arguments.
func agentSignals(in monitor: PipedProcess) -> [(member: String, arguments: [Any])] {
    monitor.drain()
    return monitor.stdoutText.split(separator: "\n").compactMap { line in
        guard let message = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              message["type"] as? String == "signal", message["interface"] as? String == "org.shotguard.Agent1",
              message["path"] as? String == "/org/shotguard/Agent1" else { return nil }
        return (message["member"] as? String ?? "", (message["payload"] as? [String: Any])?["data"] as? [Any] ?? [])
    }
}
