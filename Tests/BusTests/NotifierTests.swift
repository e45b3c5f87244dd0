// Desktop notifications through a notification server on a private bus (a fake that records
// the calls: the server is not ours, the bus is real).
import Foundation
import ShotguardBase
import ShotguardBus
import ShotguardTestSupport
import XCTest

final class NotifierTests: XCTestCase {
    private func notifyCalls(_ server: PipedProcess) -> [[String: Any]] {
        records(of: server).filter { $0["method"] as? String == "Notify" }
    }

    /// Serves until the notifier has nothing in flight; the server printed each call before it
    /// answered, so its output then holds every call.
    private func settle(_ notifier: Notifier, _ bus: SessionBus, _ server: PipedProcess?) {
        serve([bus], programs: server.map { [$0] } ?? []) { notifier.isIdle }
        server?.drain()
    }

    func testABurstShowsOneNotificationThatLaterOnesReplace() throws {
        let bus = try PrivateBus(self)
        let connection = try SessionBus(address: bus.address)
        let server = try startFake("notification-server.py", on: bus)
        let notifier = Notifier(bus: connection)
        for count in 1...5 { notifier.notify(summary: "Screenshot redacted", body: "\(count) areas covered") }
        settle(notifier, connection, server)
        var calls = notifyCalls(server)
        XCTAssertEqual(calls.count, 1, "a burst is one notification: \(calls)")
        XCTAssertEqual(calls.first?["body"] as? String, "5 areas covered", "the newest text wins")
        XCTAssertEqual(calls.first?["replaces"] as? Int, 0)
        XCTAssertEqual(calls.first?["app"] as? String, "shotguard")
        XCTAssertEqual(calls.first?["expire"] as? Int, 6000, "a short expiry")
        XCTAssertEqual(calls.first?["hints"] as? [String], ["urgency"])
        let id = try XCTUnwrap(calls.first?["id"] as? Int)
        XCTAssertEqual(Int(notifier.notificationID), id)

        notifier.notify(summary: "Screenshot quarantined", body: "it could not be placed")
        notifier.notify(summary: "Protection paused", body: "until 14:35")
        settle(notifier, connection, server)
        calls = notifyCalls(server)
        XCTAssertEqual(calls.count, 3, "one sent at once, the next when it was answered: \(calls)")
        XCTAssertEqual(calls.dropFirst().map { $0["replaces"] as? Int }, [id, id], "each replaces the notification shown")
        XCTAssertEqual(calls.last?["summary"] as? String, "Protection paused")
        XCTAssertEqual(records(of: server).filter { $0["method"] as? String == "GetCapabilities" }.count, 1)
    }

    func testNoServerIsSilent() throws {
        let bus = try PrivateBus(self)
        let connection = try SessionBus(address: bus.address)
        let notifier = Notifier(bus: connection)
        notifier.notify(summary: "Screenshot redacted", body: "2 areas covered")
        XCTAssertFalse(notifier.isIdle, "the call is on its way")
        settle(notifier, connection, nil)
        XCTAssertEqual(notifier.notificationID, 0)
        XCTAssertGreaterThanOrEqual(connection.fileDescriptor, 0, "the connection is still there")

        // A server that comes later is used.
        let server = try startFake("notification-server.py", on: bus, serving: [connection])
        notifier.notify(summary: "Screenshot redacted", body: "1 area covered")
        settle(notifier, connection, server)
        XCTAssertEqual(notifyCalls(server).map { $0["body"] as? String }, ["1 area covered"])
        XCTAssertNotEqual(notifier.notificationID, 0)
    }

    func testHostileTextIsBoundedAndEscapedForAMarkupServer() throws {
        let bus = try PrivateBus(self)
        let connection = try SessionBus(address: bus.address)
        let server = try startFake("notification-server.py", on: bus)
        let notifier = Notifier(bus: connection)
        let title = "<b>Bank</b> & \u{202E}gnp.exe\u{1B}[31m"
        notifier.notify(summary: String(repeating: "S", count: 500), body: "window '\(title)'\nline two")
        settle(notifier, connection, server)
        let call = try XCTUnwrap(notifyCalls(server).first)
        let summary = try XCTUnwrap(call["summary"] as? String)
        XCTAssertEqual(summary.count, 120)
        XCTAssertTrue(summary.hasSuffix("…"))
        XCTAssertEqual(call["body"] as? String, "window '&lt;b&gt;Bank&lt;/b&gt; &amp;  gnp.exe [31m'\nline two")
    }

    func testPlainServerGetsPlainTextAndNoActions() throws {
        let bus = try PrivateBus(self)
        let connection = try SessionBus(address: bus.address)
        let server = try startFake("notification-server.py", ["--capabilities", "body"], on: bus)
        let notifier = Notifier(bus: connection)
        notifier.notify(summary: "Screenshot quarantined", body: "a <b> & c",
                        actions: [NotificationAction(key: "restore", label: "Restore")])
        settle(notifier, connection, server)
        let call = try XCTUnwrap(notifyCalls(server).first)
        XCTAssertEqual(call["body"] as? String, "a <b> & c", "no markup, nothing to escape")
        XCTAssertEqual(call["actions"] as? [String], [], "a server without actions gets none")
    }

    func testChosenActionComesBack() throws {
        let bus = try PrivateBus(self)
        let connection = try SessionBus(address: bus.address)
        let server = try startFake("notification-server.py", ["--invoke", "restore"], on: bus)
        let notifier = Notifier(bus: connection)
        var chosen: [String] = []
        notifier.actionInvoked = { chosen.append($0) }
        notifier.notify(summary: "Screenshot quarantined", body: "shotguard quarantine restore 20261203-101503-004",
                        actions: [NotificationAction(key: "restore", label: "Restore")])
        serve([connection], programs: [server]) { !chosen.isEmpty }
        XCTAssertEqual(chosen, ["restore"])
        XCTAssertEqual(notifyCalls(server).first?["actions"] as? [String], ["restore", "Restore"])
    }
}
