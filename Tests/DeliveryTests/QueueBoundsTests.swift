// The queue's bounds: the oldest waiting reports go first, by age, count and size; the newest always stays.
@testable import ShotguardDelivery
import XCTest

final class QueueBoundsTests: XCTestCase {
    private func entry(_ sequence: Int, created: Double, bytes: Int = 100, sent: Bool = false) -> OutboxEntry {
        var delivery = Delivery(to: "http://127.0.0.1:1/", headerFile: nil)
        if sent { delivery.state = .sent }
        return OutboxEntry(name: OutboxEntry.name(sequence: sequence, reportID: "r\(sequence)"), sequence: sequence, reportID: "r\(sequence)",
                           eventID: "e", created: created, held: false, deliveries: [delivery], bytes: bytes, hasImage: true)
    }

    func testTheOldestGoFirstByCountThenSize() {
        let bounds = QueueBounds(reports: 3, bytes: 250, age: nil)
        let entries = (1...5).map { entry($0, created: Double($0)) }
        XCTAssertEqual(bounds.overflow(entries, now: 10).map(\.name), ["0000000001-r1", "0000000002-r2", "0000000003-r3"],
                       "3 by count leaves 300 bytes: one more by size")
        XCTAssertEqual(bounds.overflow(entries, now: 10).map(\.reason), [.count, .count, .size])
    }

    func testTooOldGoesAndDeliveredEntriesDoNotCount() {
        let bounds = QueueBounds(reports: 2, bytes: 1 << 30, age: 60)
        let entries = [entry(1, created: 0), entry(2, created: 50, sent: true), entry(3, created: 90), entry(4, created: 95)]
        XCTAssertEqual(bounds.overflow(entries, now: 100).map(\.name), ["0000000001-r1"])
        XCTAssertEqual(bounds.overflow(entries, now: 100).map(\.reason), [.age])
    }

    func testTheNewestStaysEvenAloneOverTheSize() {
        let bounds = QueueBounds(reports: 10, bytes: 50, age: nil)
        XCTAssertEqual(bounds.overflow([entry(1, created: 0), entry(2, created: 1)], now: 2).map(\.name), ["0000000001-r1"])
    }

    func testFinishedEntriesAreKeptBoundedForTheList() {
        var bounds = QueueBounds(reports: 10, bytes: 1 << 30, age: nil)
        bounds.finishedKept = 2
        let entries = (1...4).map { entry($0, created: Double($0), sent: true) } + [entry(5, created: 5)]
        XCTAssertEqual(bounds.finishedToRemove(entries, now: 10), ["0000000001-r1", "0000000002-r2"])
    }
}
