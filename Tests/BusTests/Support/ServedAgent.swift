// The agent's service on a private bus, answered by a fake AgentControl that records its calls,
// and the loop that serves it while other programs call it.
import Glibc
import ShotguardBase
import ShotguardBus
import ShotguardTestSupport
import XCTest

/// An AgentControl with set answers, recording what it was asked.
final class FakeControl: AgentControl {
    var currentStatus = AgentStatus(protection: .protecting, rules: ["window": 2, "field": 1],
                                    sources: ["files", "clipboard", "tool windows"], recordAvailable: true,
                                    lastReport: .init(id: "20261203-101502-120", time: 1_764_756_902, outcome: "redacted 2 areas"),
                                    display: ":7", version: "0.1.0")
    var pauseAnswer: PauseAnswer?
    var reloadAnswer = ReloadAnswer.reloaded("3 rules: 2 windows, 1 field")
    private(set) var calls: [String] = []
    /// The service, to emit Paused and Resumed as an agent does when its state changes.
    weak var service: AgentBusService?

    func status() -> AgentStatus {
        calls.append("status")
        return currentStatus
    }

    func pause(seconds: Double) -> PauseAnswer {
        calls.append("pause \(seconds)")
        let answer = pauseAnswer ?? .paused(until: seconds == 0 ? nil : now() + seconds)
        if case .paused(let until) = answer {
            currentStatus.protection = .paused(until: until)
            service?.paused(until: until)
        }
        return answer
    }

    func resume() -> Bool {
        calls.append("resume")
        guard case .paused = currentStatus.protection else { return false }
        currentStatus.protection = .protecting
        service?.resumed()
        return true
    }

    func reload() -> ReloadAnswer {
        calls.append("reload")
        return reloadAnswer
    }
}

/// A bus connection of the test with the agent's service on it.
final class ServedAgent {
    let bus: SessionBus
    let control = FakeControl()
    let service: AgentBusService

    init(on privateBus: PrivateBus) throws {
        bus = try SessionBus(address: privateBus.address)
        service = try AgentBusService(bus: bus, control: control)
        control.service = service
    }
}

/// Serves `bus` (processing it as an agent's loop does) and reads the programs' output until
/// `done` holds. The limit only keeps a broken test from hanging: a test never waits on time.
func serve(_ buses: [SessionBus], programs: [PipedProcess] = [], limit: Double = 60,
           file: StaticString = #filePath, line: UInt = #line, until done: () -> Bool) {
    let end = monotonicNow() + limit
    while !done() {
        let now = monotonicNow()
        guard now < end else {
            XCTFail("still waiting after \(Int(limit)) s; output so far:\n"
                + programs.map { "\($0.label):\n\($0.stdoutText)\($0.stderrText)" }.joined(separator: "\n"),
                    file: file, line: line)
            return
        }
        var fds = buses.filter { $0.fileDescriptor >= 0 }.map { pollfd(fd: $0.fileDescriptor, events: $0.pollEvents, revents: 0) }
        fds += programs.flatMap { $0.openDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } }
        let deadlines = buses.compactMap(\.deadline) + [end]
        let wait = max(0, min(deadlines.min()! - now, 1.0))
        _ = poll(&fds, nfds_t(fds.count), Int32((wait * 1000).rounded(.up)))
        for bus in buses {
            do throws(BusError) { try bus.process() } catch { XCTFail("the bus failed: \(error)", file: file, line: line) }
        }
        for program in programs { program.drain() }
    }
}

/// Runs `program` to its end while serving `buses`; returns it finished.
@discardableResult
func runServing(_ program: String, _ arguments: [String], serving buses: [SessionBus], environment: [String: String],
         file: StaticString = #filePath, line: UInt = #line) throws -> PipedProcess {
    let process = try PipedProcess(program, arguments, environment: environment)
    serve(buses, programs: [process], file: file, line: line) { process.isFinished }
    process.wait()
    return process
}
