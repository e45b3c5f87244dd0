// The service's name and connection over their lives: taken by another agent, given back, lost.
@testable import ShotguardBus
import Foundation
import Glibc
import ShotguardBase
import ShotguardTestSupport
import XCTest

final class ServiceLifecycleTests: XCTestCase {
    /// A second agent on the same session bus (another display) cannot take the name.
    func testSecondServiceFindsTheNameTaken() throws {
        let bus = try PrivateBus(self)
        let first = try ServedAgent(on: bus)
        let connection = try SessionBus(address: bus.address)
        XCTAssertThrowsError(try AgentBusService(bus: connection, control: FakeControl())) { error in
            XCTAssertEqual(error as? BusError, .nameTaken(AgentInterface.busName))
            XCTAssertEqual("\(error)", "another program already owns org.shotguard.Agent1 on the session bus")
        }
        withExtendedLifetime(first) {}
    }

    /// A service that goes away gives its name back, and its object with it, while the
    /// connection (shared with the notifier) stays.
    func testReleasedServiceGivesItsNameBack() throws {
        let bus = try PrivateBus(self)
        let connection = try SessionBus(address: bus.address)
        let control = FakeControl()
        var service: AgentBusService? = try AgentBusService(bus: connection, control: control)
        XCTAssertTrue(try connection.nameHasOwner(AgentInterface.busName))
        service = nil
        // The release is sent before this call on the same connection: the bus has handled it.
        XCTAssertFalse(try connection.nameHasOwner(AgentInterface.busName))
        let other = try SessionBus(address: bus.address)
        let next = try AgentBusService(bus: other, control: control)
        let status = try runServing("busctl", ["--user", "call", AgentInterface.busName, AgentInterface.objectPath,
                                               AgentInterface.name, "Status"], serving: [connection, other],
                                    environment: bus.environment())
        XCTAssertEqual(status.exitStatus, 0, status.stderrText)
        XCTAssertEqual(control.calls, ["status"])
        withExtendedLifetime((service, next)) {}
    }

    /// The bus daemon goes away: process() says so once, the descriptor becomes -1 (which poll
    /// ignores), and signals and calls after that are quietly dropped.
    func testLostBusIsReportedOnceThenQuiet() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        let notifier = Notifier(bus: agent.bus)
        bus.stop()
        var lost: BusError?
        let end = monotonicNow() + 30
        while lost == nil, monotonicNow() < end {
            var fds = [pollfd(fd: agent.bus.fileDescriptor, events: agent.bus.pollEvents, revents: 0)]
            _ = poll(&fds, 1, 1000)
            do throws(BusError) { try agent.bus.process() } catch { lost = error }
        }
        guard case .lost? = lost else { return XCTFail("process() did not report the lost bus: \(String(describing: lost))") }
        XCTAssertEqual(agent.bus.fileDescriptor, -1)
        XCTAssertNil(agent.bus.deadline)
        XCTAssertNoThrow(try agent.bus.process())
        agent.service.screenshotReported(id: "a", outcome: "redacted 1 area")
        notifier.notify(summary: "Screenshot redacted", body: "1 area")
        XCTAssertTrue(notifier.isIdle, "nothing can be sent, so nothing waits")
    }
}
