// The agent's signals, as a monitor on the bus sees them (busctl monitor).
import Foundation
import ShotguardBase
import ShotguardBus
import ShotguardTestSupport
import XCTest

final class AgentSignalTests: XCTestCase {
    /// A `busctl monitor` of the agent's name, once the bus has made it a monitor.
    private func monitor(_ agent: ServedAgent, _ bus: PrivateBus) throws -> PipedProcess {
        let monitor = try PipedProcess("busctl", ["--user", "--json=short", "monitor", AgentInterface.busName],
                                       environment: bus.environment())
        // busctl says so on standard error once BecomeMonitor has returned.
        serve([agent.bus], programs: [monitor]) { monitor.stderrText.contains("Monitoring bus message stream") || monitor.isFinished }
        return monitor
    }

    /// The signals of the agent's interface the monitor printed: member and arguments.
    private func signals(in monitor: PipedProcess) throws -> [(String, [Any])] {
        try monitor.stdoutText.split(separator: "\n").compactMap { line in
            guard let message = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  message["type"] as? String == "signal", message["interface"] as? String == AgentInterface.name else {
                return nil
            }
            XCTAssertEqual(message["path"] as? String, AgentInterface.objectPath)
            let payload = message["payload"] as? [String: Any]
            return (message["member"] as? String ?? "", payload?["data"] as? [Any] ?? [])
        }
    }

    func testEverySignalReachesAMonitorWithItsArguments() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        let monitor = try monitor(agent, bus)
        agent.service.screenshotReported(id: "20261203-101502-120", outcome: "redacted 2 areas")
        agent.service.reported(id: "20261203-101502-120", report: "{\"id\":\"20261203-101502-120\"}")
        agent.service.fileQuarantined(id: "20261203-101503-004", path: "/home/u/Pictures/Screenshot.png")
        agent.service.recording(started: true, program: "ffmpeg", pid: 4242, geometry: "1920x1080+0+0")
        agent.service.recording(started: false, program: "ffmpeg", pid: 4242, geometry: nil)
        agent.service.paused(until: 1_764_757_502)
        agent.service.paused(until: nil)
        agent.service.resumed()
        serve([agent.bus], programs: [monitor]) { ((try? signals(in: monitor)) ?? []).count >= 8 || monitor.isFinished }
        monitor.terminate()

        var seen = try signals(in: monitor)
        XCTAssertEqual(seen.map(\.0), ["ScreenshotReported", "Reported", "FileQuarantined", "RecordingStarted", "RecordingStopped",
                                       "Paused", "Paused", "Resumed"])
        guard seen.count == 8 else { return }
        XCTAssertEqual(seen[0].1 as? [String], ["20261203-101502-120", "redacted 2 areas"])
        XCTAssertEqual(seen.remove(at: 1).1 as? [String], ["20261203-101502-120", "{\"id\":\"20261203-101502-120\"}"])
        XCTAssertEqual(seen[1].1 as? [String], ["20261203-101503-004", "/home/u/Pictures/Screenshot.png"])
        XCTAssertEqual(seen[2].1.count, 3)
        XCTAssertEqual(seen[2].1.first as? String, "ffmpeg")
        XCTAssertEqual(seen[2].1.dropFirst().first as? Int, 4242)
        XCTAssertEqual(seen[2].1.last as? String, "1920x1080+0+0")
        XCTAssertEqual(seen[3].1.count, 2)
        XCTAssertEqual(seen[4].1.first as? Double, 1_764_757_502)
        XCTAssertEqual(seen[5].1.first as? Double, 0, "0: until Resume")
        XCTAssertEqual(seen[6].1.count, 0)
    }

    /// A path is any bytes the file system allows; a NUL cannot travel in a D-Bus string and
    /// must not cut the rest off or lose the signal.
    func testTextWithANulStillTravels() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        let monitor = try monitor(agent, bus)
        agent.service.fileQuarantined(id: "a", path: "/tmp/evil\u{0}name.png")
        serve([agent.bus], programs: [monitor]) { ((try? signals(in: monitor)) ?? []).count >= 1 || monitor.isFinished }
        monitor.terminate()
        XCTAssertEqual(try signals(in: monitor).first?.1 as? [String], ["a", "/tmp/evil\u{FFFD}name.png"])
    }

    /// A pause over the bus reaches the agent, whose change the monitor sees as Paused.
    func testPauseFromOutsideIsAnnouncedByTheAgent() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        let monitor = try monitor(agent, bus)
        let pause = try runServing("busctl", ["--user", "call", AgentInterface.busName, AgentInterface.objectPath,
                                              AgentInterface.name, "Pause", "d", "90"],
                                   serving: [agent.bus], environment: bus.environment())
        XCTAssertEqual(pause.exitStatus, 0, pause.stderrText)
        serve([agent.bus], programs: [monitor]) { ((try? signals(in: monitor)) ?? []).count >= 1 || monitor.isFinished }
        monitor.terminate()
        XCTAssertEqual(try signals(in: monitor).map(\.0), ["Paused"])
    }
}
