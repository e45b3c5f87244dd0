// What a notification says of a redacted screenshot: every area covered, text rules' finds too.
import ShotguardImaging
import ShotguardRegions
import XCTest

@testable import ShotguardAgent

final class NotificationTextTests: XCTestCase {
    /// Regression: a window and a card number covered were notified as "1 area covered".
    func testTheTextRulesFindsCountAmongTheAreasCovered() {
        var report = Report(id: "r", time: 0)
        report.redactions = [RegionHit(line: 1, fill: .black, rect: Rect(x: 0, y: 0, width: 10, height: 10))]
        XCTAssertEqual(DesktopIntegration.redactedBody(report, place: "a.png"), "1 area covered in a.png")
        report.textCovers = [(kind: "card", line: 2, rect: Rect(x: 20, y: 0, width: 80, height: 12))]
        XCTAssertEqual(DesktopIntegration.redactedBody(report, place: "a.png"), "2 areas covered in a.png (1 card among them)")
        report.textCovers.append((kind: "email", line: 3, rect: Rect(x: 20, y: 20, width: 80, height: 12)))
        report.textCovers.append((kind: "card", line: 2, rect: Rect(x: 20, y: 40, width: 80, height: 12)))
        XCTAssertEqual(DesktopIntegration.redactedBody(report, place: "a.png"),
                       "4 areas covered in a.png (2 cards, 1 email among them)")
    }
}
