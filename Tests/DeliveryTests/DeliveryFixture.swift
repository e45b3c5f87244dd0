// A queue in a private folder, a courier over it, and a loop that drives it as the agent's would.
import Foundation
import Glibc
import ShotguardBase
@testable import ShotguardDelivery
import ShotguardTestSupport
import XCTest

/// A report.json of the agent's form, small, with `id`.
func reportJSON(_ id: String, description: String? = nil) -> [UInt8] {
    let words = description.map { "\"\($0)\"" } ?? "null"
    return Array(("{\"type\":\"screenshot\",\"schema\":5,\"id\":\"\(id)\",\"time\":\"2026-12-01T10:10:10.001Z\","
        + "\"image\":{\"source\":\"file\",\"path\":null,\"width\":4,\"height\":2},\"redactions\":[{\"line\":1}],"
        + "\"activeWindow\":{\"id\":\"0x1\",\"class\":\"Vault\",\"instance\":\"vault\",\"title\":null,\"titleWithheld\":true},"
        + "\"screen\":{\"width\":640,\"height\":400},\"monitors\":[{\"name\":\"screen\",\"geometry\":\"640x400+0+0\",\"primary\":true}],"
        + "\"capturedBy\":{\"program\":\"scrot\",\"pid\":42},\"application\":{\"desktopEntry\":\"vault.desktop\",\"name\":\"Vault\","
        + "\"version\":\"2.1\"},\"description\":\(words),\"host\":\"h\",\"shotguard\":\"0.1.0\"}\n").utf8)
}

/// A few bytes standing for a PNG: the queue never decodes what it carries.
let imageBytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3, 0, 255]

final class DeliveryFixture {
    let folder: TemporaryFolder
    let outboxPath: String

    init(_ test: XCTestCase) throws {
        folder = try TemporaryFolder(test, label: "delivery")
        outboxPath = try folder.folder("outbox")
    }

    func courier(bounds: QueueBounds = .standard, policy: RetryPolicy = RetryPolicy()) -> Courier {
        Courier(outbox: Outbox(folder: outboxPath), bounds: bounds, policy: policy, client: ("shotguard", "0.1.0"))
    }

    func server(port: Int = 0, answers: [String] = [], hold: Bool = false) throws -> ReportServer {
        try ReportServer(folder: folder.url.appendingPathComponent("server"), port: port, answers: answers, hold: hold)
    }
}

/// Drives `courier` as the agent's loop does (its sockets, its deadline) until `condition` holds
/// or `seconds` pass; false on time-out.
@discardableResult
func drive(_ courier: Courier, seconds: Double = 30, until condition: () -> Bool) -> Bool {
    let end = monotonicNow() + seconds
    courier.pump()
    while !condition() {
        let now = monotonicNow()
        guard now < end else { return false }
        let watched = courier.watches
        var fds = watched.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
        let until = min(courier.deadline ?? end, end)
        _ = poll(&fds, nfds_t(fds.count), Int32(max(0, min(1000, ((until - now) * 1000).rounded(.up)))))
        for (index, fd) in fds.enumerated() where fd.revents != 0 { courier.ready(fd: watched[index].fd, revents: fd.revents) }
        courier.pump()
    }
    return true
}
