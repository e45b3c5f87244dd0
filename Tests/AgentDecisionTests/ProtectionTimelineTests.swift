// The rules' rectangles over time: what a capture made between two moments is held to.
import ShotguardImaging
import ShotguardRegions
import XCTest

@testable import ShotguardAgent

final class ProtectionTimelineTests: XCTestCase {
    private let vault = RegionHit(line: 1, fill: .black, rect: Rect(x: 0, y: 0, width: 10, height: 10), windowID: 1)
    private let popup = RegionHit(line: 2, fill: .black, rect: Rect(x: 50, y: 50, width: 20, height: 10), windowID: 2)

    func testARectangleProtectedAtAnyMomentOfTheSpanCounts() {
        var timeline = ProtectionTimeline()
        timeline.update([vault], at: 0)
        timeline.update([vault, popup], at: 5)
        timeline.update([vault], at: 5.2)
        XCTAssertEqual(timeline.current, [vault])
        XCTAssertEqual(timeline.hits(from: 5.1, to: 6), [vault, popup], "the pop-up was there at 5.1")
        XCTAssertEqual(timeline.hits(from: 5.3, to: 6), [vault], "gone by 5.3")
        XCTAssertEqual(timeline.hits(from: 1, to: 4), [vault], "not there yet")
        // A window that moved is a new rectangle; the old one closes.
        var moved = vault
        moved.rect = Rect(x: 100, y: 0, width: 10, height: 10)
        timeline.update([moved], at: 7)
        XCTAssertEqual(timeline.hits(from: 6.5, to: 7.5), [vault, moved])
    }

    func testClosedRectanglesAreForgottenAfterTheRetentionAndBounded() {
        var timeline = ProtectionTimeline()
        timeline.update([popup], at: 0)
        timeline.update([], at: 1)
        timeline.update([], at: 2 + ProtectionTimeline.retention)
        XCTAssertEqual(timeline.hits(from: 0, to: 1), [], "forgotten")
        for index in 0..<(ProtectionTimeline.capacity + 100) {
            var hit = popup
            hit.rect.x = index
            timeline.update([hit], at: 3000 + Double(index))
        }
        XCTAssertLessThanOrEqual(timeline.spans.count, ProtectionTimeline.capacity)
        XCTAssertEqual(timeline.current.count, 1)
    }
}
