// The courier against a real HTTP server on 127.0.0.1: envelopes and forms as a service parses them,
// a service that fails then recovers, one that is down, a backlog in order, the bounds.
import Foundation
import ShotguardBase
@testable import ShotguardDelivery
import ShotguardTestSupport
import XCTest

final class CourierTests: XCTestCase {
    private var fixture: DeliveryFixture!

    override func setUpWithError() throws { fixture = try DeliveryFixture(self) }

    /// One report to a Sentry project and a webhook: an envelope with the event, the image and
    /// report.json (lengths exact), and a form with `report` and `image`, each byte for byte.
    func testEnvelopeAndFormCarryTheReportAndImage() throws {
        let server = try fixture.server()
        let headers = try fixture.folder.file("headers", Array("Authorization: Bearer t0ken\n".utf8))
        chmod(headers, 0o600)
        let courier = fixture.courier()
        try courier.enqueue(reportID: "20261201-101010-001", report: reportJSON("20261201-101010-001"), image: imageBytes,
                            destinations: [try Destination.parse("sentry:" + server.dsn),
                                           try Destination.parse(server.url("/hook?team=qa"), headerFile: headers)], held: false)
        XCTAssertTrue(drive(courier) { courier.counts.waiting == 0 && courier.isIdle }, "\(courier.queue)")
        XCTAssertTrue(server.wait { $0.filter { $0["answered"] as? Bool == true }.count == 2 })
        let requests = server.delivered
        let envelope = try XCTUnwrap(requests.first { $0["kind"] as? String == "envelope" }, "\(requests)")
        XCTAssertEqual(envelope["path"] as? String, "/api/42/envelope/")
        let sentryHeaders = try XCTUnwrap(envelope["headers"] as? [String: String])
        XCTAssertEqual(sentryHeaders["x-sentry-auth"], "Sentry sentry_version=7, sentry_key=0123456789abcdef, sentry_client=shotguard/0.1.0")
        let items = try XCTUnwrap(envelope["items"] as? [[String: Any]])
        XCTAssertEqual(items.map { $0["type"] as? String }, ["event", "attachment", "attachment"])
        XCTAssertEqual(items[1]["filename"] as? String, "screenshot.png")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: try XCTUnwrap(envelope.imageFile))), Data(imageBytes))
        XCTAssertEqual(envelope.reportID, "20261201-101010-001")
        let header = try XCTUnwrap(envelope["header"] as? [String: Any])
        let event = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: items[0]["file"] as! String)))
            as? [String: Any])
        XCTAssertEqual(event["event_id"] as? String, header["event_id"] as? String)
        XCTAssertEqual((header["event_id"] as? String)?.count, 32)
        let contexts = try XCTUnwrap(event["contexts"] as? [String: [String: Any]])
        XCTAssertEqual(contexts["app"]?["app_version"] as? String, "2.1")
        XCTAssertEqual(contexts["screenshot"]?["captured_by"] as? String, "scrot")
        XCTAssertNil(contexts["screenshot"]?["window_title"], "a protected window's title stays out")

        let form = try XCTUnwrap(requests.first { $0["kind"] as? String == "multipart" }, "\(requests)")
        XCTAssertEqual(form["path"] as? String, "/hook?team=qa")
        XCTAssertEqual((form["headers"] as? [String: String])?["authorization"], "Bearer t0ken")
        XCTAssertEqual((form["headers"] as? [String: String])?["x-shotguard-delivery"], header["event_id"] as? String,
                       "one id for the report, whatever the destination")
        let parts = try XCTUnwrap(form["parts"] as? [[String: Any]])
        XCTAssertEqual(parts.map { $0["name"] as? String }, ["report", "image"])
        XCTAssertEqual(parts[0]["content_type"] as? String, "application/json")
        XCTAssertEqual(parts[1]["content_type"] as? String, "image/png")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: try XCTUnwrap(form.imageFile))), Data(imageBytes))
        XCTAssertEqual(form.reportID, "20261201-101010-001")
        // Delivered everywhere: the queue's copy of the screen is gone, its state kept for the list.
        let entry = try XCTUnwrap(courier.queue.first)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.outboxPath + "/" + entry.name + "/image.png"))
        XCTAssertEqual(entry.deliveries.map(\.state), [.sent, .sent])
    }

    /// 500, then 429 with Retry-After, then 200: delivered once, on the third try, after the
    /// backoff and then the service's own wait.
    func testAServiceThatFailsThenAsksToWaitThenTakesIt() throws {
        let server = try fixture.server(answers: ["500", "429:1"])
        let courier = fixture.courier(policy: RetryPolicy(base: 1, cap: 10))
        var verdicts: [CourierEvent] = []
        courier.onEvent = { verdicts.append($0) }
        try courier.enqueue(reportID: "r1", report: reportJSON("r1"), image: imageBytes, destinations: [try Destination.parse(server.url())],
                            held: false)
        XCTAssertTrue(drive(courier) { courier.counts.waiting == 0 && courier.isIdle })
        XCTAssertEqual(verdicts.compactMap { event -> String? in
            switch event {
            case .retry(_, _, let after, let why): return "retry \(after) \(why.prefix(8))"
            case .delivered(_, _, let status): return "delivered \(status ?? 0)"
            default: return nil
            }
        }, ["retry 1.0 HTTP 500", "retry 1.0 HTTP 429", "delivered 200"])
        XCTAssertTrue(server.wait { $0.filter { $0["answered"] as? Bool == true }.count == 3 })
        XCTAssertEqual(server.requests.compactMap { $0["status"] as? Int }, [500, 429, 200])
        XCTAssertEqual(server.delivered.count, 1)
        XCTAssertEqual(courier.queue.first?.deliveries.first?.attempts, 3)
    }

    /// The service is down while reports are queued: nothing arrives, they wait in order; it
    /// comes back, `sendNow` retries: each arrives exactly once, in the order taken.
    func testReportsMadeWhileTheServiceIsDownArriveOnceEachWhenItIsBack() throws {
        let first = try fixture.server()
        let port = first.port
        first.stop()
        let courier = fixture.courier()
        var failed = 0
        courier.onEvent = { if case .retry = $0 { failed += 1 } }
        let destination = try Destination.parse("http://127.0.0.1:\(port)/hook")
        for index in 1...5 {
            try courier.enqueue(reportID: "r\(index)", report: reportJSON("r\(index)"), image: imageBytes, destinations: [destination],
                                held: false)
        }
        XCTAssertTrue(drive(courier) { failed >= 1 && courier.isIdle }, "the first report was tried and failed")
        XCTAssertEqual(courier.counts.waiting, 5)
        XCTAssertEqual(failed, 1, "one failure makes the lane wait: the rest are not tried against a service that is down")
        XCTAssertEqual(first.requests.count, 0)

        let back = try fixture.server(port: port)
        XCTAssertEqual(courier.sendNow([]).scheduled.count, 5)
        XCTAssertTrue(drive(courier) { courier.counts.waiting == 0 && courier.isIdle })
        XCTAssertTrue(back.wait { $0.filter { $0["answered"] as? Bool == true }.count == 5 })
        XCTAssertEqual(back.delivered.compactMap(\.reportID), ["r1", "r2", "r3", "r4", "r5"])
    }

    /// A process dies with an upload under way (the service had the whole body but had not
    /// answered): the next courier over the same queue sends it again, and it is delivered once.
    func testAnUploadCutOffIsSentAgainByTheNextRun() throws {
        let server = try fixture.server(hold: true)
        var courier: Courier? = fixture.courier()
        try courier!.enqueue(reportID: "r1", report: reportJSON("r1"), image: imageBytes, destinations: [try Destination.parse(server.url())],
                             held: false)
        XCTAssertTrue(drive(courier!, until: { server.requests.contains { $0["held"] as? Bool == true } }))
        courier!.abandon()  // as a SIGKILL would: the connection closes, nothing is marked
        courier = nil
        XCTAssertTrue(server.wait { $0.contains { $0["aborted"] as? Bool == true } })
        let next = fixture.courier()
        XCTAssertEqual(next.counts.waiting, 1)
        XCTAssertTrue(drive(next) { next.counts.waiting == 0 && next.isIdle })
        XCTAssertTrue(server.wait { !$0.filter { $0["answered"] as? Bool == true }.isEmpty })
        XCTAssertEqual(server.delivered.compactMap(\.reportID), ["r1"])
        let held = try XCTUnwrap(server.requests.first)
        XCTAssertEqual((held["headers"] as? [String: String])?["x-shotguard-delivery"],
                       (server.delivered.first?["headers"] as? [String: String])?["x-shotguard-delivery"], "the same delivery id again")
    }

    /// 1,000 reports waiting: delivered in the order they were queued, each once, none dropped.
    func testABacklogOfAThousandIsDeliveredInOrder() throws {
        let courier = fixture.courier(bounds: QueueBounds(reports: 1000, bytes: 1 << 30, age: nil))
        let server = try fixture.server()
        let destination = try Destination.parse(server.url())
        server.stop()
        var failed = false
        courier.onEvent = { if case .retry = $0 { failed = true } }
        let ids = (1...1000).map { String(format: "20261201-101010-%03d-%04d", $0 % 1000, $0) }
        for id in ids { try courier.enqueue(reportID: id, report: reportJSON(id), image: imageBytes, destinations: [destination], held: false) }
        XCTAssertTrue(drive(courier) { failed && courier.isIdle })
        XCTAssertEqual(courier.counts.waiting, 1000)
        XCTAssertEqual(courier.dropped, 0, "a thousand fit the bound")
        let back = try fixture.server(port: server.port)
        courier.sendNow([])
        XCTAssertTrue(drive(courier, seconds: 300) { courier.counts.waiting == 0 && courier.isIdle }, "\(courier.counts)")
        XCTAssertTrue(back.wait(seconds: 30) { $0.filter { $0["answered"] as? Bool == true }.count == 1000 })
        XCTAssertEqual(back.delivered.compactMap(\.reportID), ids)
    }

    /// Over the bound the oldest waiting reports go, counted; the rest are delivered.
    func testOverTheBoundTheOldestAreDroppedAndCounted() throws {
        let courier = fixture.courier(bounds: QueueBounds(reports: 3, bytes: 1 << 30, age: nil))
        var dropped: [String] = []
        courier.onEvent = { if case .dropped(let report, _) = $0 { dropped.append(report) } }
        let destination = try Destination.parse("http://127.0.0.1:9/unused")
        for index in 1...5 {
            try courier.enqueue(reportID: "r\(index)", report: reportJSON("r\(index)"), image: nil, destinations: [destination], held: true)
        }
        XCTAssertEqual(dropped, ["r1", "r2"])
        XCTAssertEqual(courier.counts.dropped, 2)
        XCTAssertEqual(courier.queue.map(\.reportID), ["r3", "r4", "r5"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: fixture.outboxPath).filter { $0.hasPrefix("0") }.count, 3)
    }
}
