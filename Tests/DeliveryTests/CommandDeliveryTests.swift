// `exec:CMD` from the queue: the command gets the queued report's files, and only its exit 0 delivers.
import Foundation
import ShotguardBase
@testable import ShotguardDelivery
import ShotguardTestSupport
import XCTest

final class CommandDeliveryTests: XCTestCase {
    private var fixture: DeliveryFixture!

    override func setUpWithError() throws { fixture = try DeliveryFixture(self) }

    /// The command sees the report and the image through SHOTGUARD_REPORT and SHOTGUARD_IMAGE;
    /// a command that fails is tried again (the same report), and exit 0 marks it sent.
    func testACommandThatFailsOnceIsRunAgainAndItsSuccessDelivers() throws {
        let seen = fixture.folder.at("seen")
        let marker = fixture.folder.at("failed-once")
        // Fails the first time (no marker yet), then copies what it was given and succeeds.
        let command = "if [ ! -e '\(marker)' ]; then : > '\(marker)'; exit 3; fi; "
            + "cat \"$SHOTGUARD_REPORT\" > '\(seen).json' && cat \"$SHOTGUARD_IMAGE\" > '\(seen).png'"
        let courier = fixture.courier(policy: RetryPolicy(base: 0.2, cap: 1))
        var verdicts: [String] = []
        courier.onEvent = { event in
            if case .retry(_, _, _, let why) = event { verdicts.append(why) }
            if case .delivered = event { verdicts.append("delivered") }
        }
        try courier.enqueue(reportID: "r1", report: reportJSON("r1"), image: imageBytes,
                            destinations: [try Destination.parse("exec:" + command)], held: false)
        XCTAssertTrue(drive(courier) { courier.counts.waiting == 0 && courier.isIdle }, "\(verdicts)")
        XCTAssertEqual(verdicts, ["the command exited with status 3", "delivered"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: seen + ".json")), Data(reportJSON("r1")))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: seen + ".png")), Data(imageBytes))
    }

    /// A held report (--report-ask) is not run until it is released.
    func testAHeldReportWaitsForItsRelease() throws {
        let ran = fixture.folder.at("ran")
        let courier = fixture.courier()
        try courier.enqueue(reportID: "r1", report: reportJSON("r1"), image: nil,
                            destinations: [try Destination.parse("exec:: > '\(ran)'")], held: true)
        courier.pump()
        XCTAssertTrue(courier.isIdle)
        XCTAssertEqual(courier.counts.held, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: ran))
        XCTAssertTrue(courier.release(reportID: "r1", report: reportJSON("r1", description: "the words")))
        XCTAssertTrue(drive(courier) { courier.counts.waiting == 0 && courier.counts.held == 0 && courier.isIdle })
        XCTAssertTrue(FileManager.default.fileExists(atPath: ran))
        let entry = try XCTUnwrap(courier.queue.first)
        XCTAssertEqual(try courier.outbox.report(of: entry), reportJSON("r1", description: "the words"), "the description went with it")
    }
}
