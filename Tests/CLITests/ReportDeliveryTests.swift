// The agent's reporters end to end: real scrot screenshots on Xvfb reach a local HTTP server as a
// Sentry envelope and a webhook form, redacted; a service down, an agent killed mid-upload, the
// user's word asked first, and `reports follow` beside the running agent.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class ReportDeliveryTests: WatchDesktopTestCase {
    private func agent(_ extra: [String], bus: AgentBus? = nil) throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"] + extra, sandbox: sandbox,
                       display: desk.name, environment: bus?.environment ?? [:])
    }

    private func server(port: Int = 0, answers: [String] = [], hold: Bool = false) throws -> ReportServer {
        try ReportServer(folder: sandbox.home.appendingPathComponent("server"), port: port, answers: answers, hold: hold)
    }

    private func scrot(_ name: String) throws {
        try runTool("scrot -o '\(shots)/\(name)'", display: desk.name)
    }

    private func deliveries(_ watch: WatchAgent, _ state: String) -> [[String: Any]] {
        watch.events.filter { $0["event"] as? String == "delivery" && $0["state"] as? String == state }
    }

    private func answered(_ requests: [[String: Any]]) -> Int { requests.filter { $0["answered"] as? Bool == true }.count }

    /// The image a request carried, decoded.
    private func image(of request: [String: Any], file: StaticString = #filePath, line: UInt = #line) throws -> PixelBuffer {
        let path = try XCTUnwrap(request.imageFile, "no image in \(request)", file: file, line: line)
        return try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
    }

    /// A scrot screenshot reaches a Sentry project and a webhook: each request carries the
    /// report and its image, and every pixel of the image is the screen's except where the rules
    /// cover it, where it is the fill: no unredacted pixel of the vault leaves.
    func testAScrotScreenshotReachesSentryAndAWebhookRedacted() throws {
        let screen = try desk.screen()
        let service = try server()
        let headers = try sandbox.write("hook-headers", text: "Authorization: Bearer s3cret\n")
        chmod(headers, 0o600)
        let watch = try agent(["--report-to", "sentry:" + service.dsn, "--report-to", service.url(), "--report-header-file", headers])
        try scrot("scrot-1.png")
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertTrue(service.wait { self.answered($0) == 2 }, watch.log)
        let requests = service.delivered
        XCTAssertEqual(Set(requests.compactMap { $0["kind"] as? String }), ["envelope", "multipart"])
        for request in requests {
            XCTAssertEqual(request.reportID, report.json["id"] as? String)
            assertRedacted(try image(of: request), origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
        }
        let form = try XCTUnwrap(requests.first { $0["kind"] as? String == "multipart" })
        XCTAssertEqual((form["headers"] as? [String: String])?["authorization"], "Bearer s3cret")
        XCTAssertFalse(watch.log.contains("s3cret"), "the token never reaches the log")
        // The context a developer needs, in the report that was sent.
        XCTAssertEqual(report.json["schema"] as? Int, 5)
        XCTAssertEqual((report.json["capturedBy"] as? [String: Any])?["program"] as? String, "scrot")
        XCTAssertTrue(report.json["description"] is NSNull)
        XCTAssertEqual((report.json["monitors"] as? [Any])?.count, 1)

        let list = try sandbox.run(["reports", "list", "--json", "--spool", watch.spool.path])
        let listed = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(list.stdout)) as? [[String: Any]])?.first, list.stdoutText)
        XCTAssertEqual((listed["delivery"] as? [[String: Any]])?.compactMap { $0["state"] as? String }, ["sent", "sent"])
    }

    /// The service is down while three screenshots are made: nothing arrives, the agent waits;
    /// it comes back and `reports send` asks the agent to try now: each report arrives once.
    func testReportsMadeWhileTheServiceIsDownArriveOnceEachWhenItIsBack() throws {
        let bus = try AgentBus(self, notificationServer: false)
        let down = try server()
        let port = down.port
        down.stop()
        let watch = try agent(["--report-to", "http://127.0.0.1:\(port)/hook"], bus: bus)
        var ids: [String] = []
        for index in 1...3 {
            try scrot("down-\(index).png")
            ids.append(try XCTUnwrap(watch.nextReport()?.json["id"] as? String, watch.log))
        }
        XCTAssertTrue(watch.waitForEvent("delivery", where: { $0["state"] as? String == "retry" }), watch.log)
        XCTAssertTrue(deliveries(watch, "delivered").isEmpty)
        XCTAssertEqual(down.requests.count, 0)
        let status = try sandbox.run(["status"], environment: bus.environment.mapValues { $0 })
        XCTAssertTrue(status.lines.contains("report queue: 3 waiting"), status.stdoutText)

        let back = try server(port: port)
        let send = try sandbox.run(["reports", "send"], environment: bus.environment.mapValues { $0 })
        XCTAssertEqual(send.status, 0, send.stderr)
        XCTAssertTrue(back.wait { self.answered($0) == 3 }, watch.log)
        XCTAssertTrue(watch.waitForEvent("delivery", count: 3, where: { $0["state"] as? String == "delivered" }), watch.log)
        XCTAssertEqual(back.delivered.compactMap(\.reportID), ids, "each once, in the order taken")
    }

    /// The agent is killed (SIGKILL) while the service holds its upload; restarted, it sends the
    /// report again from its queue, and the service has it once.
    func testAnAgentKilledMidUploadDeliversTheReportOnceAfterItRestarts() throws {
        let service = try server(hold: true)
        let first = try agent(["--report-to", service.url()])
        try scrot("killed.png")
        let id = try XCTUnwrap(first.nextReport()?.json["id"] as? String, first.log)
        XCTAssertTrue(service.wait { $0.contains { $0["held"] as? Bool == true } }, first.log)
        first.send(SIGKILL)
        XCTAssertNotNil(first.waitForExit(seconds: 10))
        XCTAssertTrue(service.wait { $0.contains { $0["aborted"] as? Bool == true } })
        XCTAssertEqual(service.delivered.count, 0)

        let second = try agent(["--report-to", service.url()])
        XCTAssertTrue(service.wait { self.answered($0) == 1 }, second.log)
        XCTAssertTrue(second.waitForEvent("delivery", where: { $0["state"] as? String == "delivered" }), second.log)
        XCTAssertEqual(service.delivered.compactMap(\.reportID), [id])
        XCTAssertEqual(second.events("delivery-queue").map { $0["waiting"] as? Int }, [1], "the earlier run's report: \(second.log)")
    }

    /// With --report-ask nothing leaves until the user chooses "Report this screenshot…" and
    /// answers the dialog; then the report goes with their words.
    func testAReportAskedForLeavesOnlyWhenTheUserSendsIt() throws {
        let bus = try AgentBus(self, notificationServer: true, serverArguments: ["--invoke", "report"])
        let service = try server()
        let watch = try agent(["--report-to", service.url(), "--report-ask"], bus: bus)
        try scrot("asked.png")
        let id = try XCTUnwrap(watch.nextReport()?.json["id"] as? String, watch.log)
        XCTAssertTrue(bus.waitForNotify { ($0["actions"] as? [String])?.contains("Report this screenshot…") ?? false })
        XCTAssertTrue(watch.waitForEvent("delivery", where: { $0["state"] as? String == "held" }), watch.log)
        // The notification's action opened the dialog: nothing has been sent while it is open.
        try runTool("xdotool search --sync --name 'Report this screenshot' windowactivate --sync", display: desk.name)
        XCTAssertTrue(deliveries(watch, "attempt").isEmpty, watch.log)
        XCTAssertEqual(service.requests.count, 0)
        try runTool("xdotool type --delay 20 'Save button does nothing'", display: desk.name)
        try runTool("xdotool key Return", display: desk.name)
        XCTAssertTrue(service.wait { self.answered($0) == 1 }, watch.log)
        let sent = try XCTUnwrap(service.delivered.first)
        XCTAssertEqual(sent.reportID, id)
        let reportFile = try XCTUnwrap((sent["parts"] as? [[String: Any]])?.first?["file"] as? String)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reportFile))) as? [String: Any])
        XCTAssertEqual(report["description"] as? String, "Save button does nothing")
    }

    /// `reports follow --json` beside the running agent prints its report as it makes it.
    func testReportsFollowPrintsTheRunningAgentsReports() throws {
        let bus = try AgentBus(self, notificationServer: false)
        let watch = try agent([], bus: bus)
        let follow = try PipedProcess(try shotguardBinary().path, ["reports", "follow", "--json"],
                                      environment: bus.environment.merging(["HOME": sandbox.home.path]) { _, new in new })
        defer { follow.terminate() }
        // It says so once its match is in place: a second agent would refuse, a follower does not.
        readOutput(of: [follow]) { follow.stderrText.contains("following the reports of the agent") || follow.isFinished }
        XCTAssertFalse(follow.isFinished, follow.stderrText)
        try scrot("followed.png")
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        readOutput(of: [follow]) { follow.stdoutText.contains("\n") || follow.isFinished }
        let line = try XCTUnwrap(follow.stdoutText.split(separator: "\n").first, follow.stderrText)
        let followed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(followed["id"] as? String, report.json["id"] as? String)
        XCTAssertEqual(followed["type"] as? String, "screenshot")
    }
}

/// A screenshot that guard sets aside (scaled, so it cannot be placed, while a rule hits the
/// screen): its original stays in quarantine, and what reaches the service is the report's
/// redacted fallback. On a server without RECORD, where a screenshot's name makes it one.
final class ReportDeliveryQuarantineTests: WatchDesktopTestCase {
    override class var serverHasRecord: Bool { false }

    func testTheOriginalOfAQuarantinedScreenshotNeverLeaves() throws {
        let screen = try desk.screen()
        let service = try ReportServer(folder: sandbox.home.appendingPathComponent("server"))
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools", "--report-to", service.url()],
                                   sandbox: sandbox, display: desk.name)
        let full = sandbox.path("made/full.png"), made = sandbox.path("made/screenshot-scaled.png")
        try runTool("scrot -o '\(full)' && /usr/bin/convert '\(full)' -resize 50% '\(made)'", display: desk.name)
        XCTAssertEqual(rename(made, shots + "/screenshot-scaled.png"), 0)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "quarantined", watch.log)
        XCTAssertEqual((report.json["image"] as? [String: Any])?["source"] as? String, "fallback")
        XCTAssertTrue(service.wait { $0.contains { $0["answered"] as? Bool == true } }, watch.log)
        let sent = try XCTUnwrap(service.delivered.first)
        let path = try XCTUnwrap(sent.imageFile)
        let image = try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
        // The fallback's rectangle on the screen, as the report says it (WxH+X+Y).
        let geometry = try XCTUnwrap((report.json["alignment"] as? [String: Any])?["geometry"] as? String)
        let numbers = geometry.split(whereSeparator: { "x+".contains($0) }).compactMap { Int($0) }
        XCTAssertEqual(numbers.count, 4, geometry)
        guard numbers.count == 4 else { return }
        XCTAssertNotEqual([image.width, image.height], [320, 200], "not the scaled original")
        assertRedacted(image, origin: Rect(x: numbers[2], y: numbers[3], width: numbers[0], height: numbers[1]), screen: screen,
                       expected: try desk.expectedRedactions())
    }
}
