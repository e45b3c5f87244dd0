// Lines too narrow for any enabled kind's shortest match are not read.
import ShotguardImaging
@testable import ShotguardText
import XCTest

final class LineWidthTests: XCTestCase {
    /// A label, a short word and a long line, each 12 px tall.
    private let lines = [Rect(x: 0, y: 0, width: 30, height: 12), Rect(x: 0, y: 20, width: 50, height: 12),
                         Rect(x: 0, y: 40, width: 400, height: 12)]

    func testACardRuleReadsOnlyLinesWideEnoughForThirteenDigits() {
        // 13 digits of 0.5 em in a 12 px line (at most 1.3 em) are at least 60 px wide.
        XCTAssertEqual(TextScanner.wideEnough(lines, for: [TextRule(kind: .card, line: 1)]), [lines[2]])
        XCTAssertEqual(TextScanner.wideEnough([Rect(x: 0, y: 0, width: 60, height: 12)], for: [TextRule(kind: .card, line: 1)]).count, 1)
    }

    func testTheKindWithTheShortestMatchDecides() {
        // A key ("xoxb-" and 10 narrow characters) may be 34 px wide in a 12 px line.
        XCTAssertEqual(TextScanner.wideEnough(lines, for: [TextRule(kind: .card, line: 1), TextRule(kind: .key, line: 2)]),
                       [lines[1], lines[2]])
        // "a@b.co" fits in 18 px of a 12 px line.
        XCTAssertEqual(TextScanner.wideEnough(lines, for: [TextRule(kind: .card, line: 1), TextRule(kind: .email, line: 2)]), lines)
    }

    func testAPatternRuleReadsEveryLine() throws {
        let rule = TextRule(kind: .pattern, pattern: try TextPattern("x"), line: 1)
        XCTAssertEqual(TextScanner.wideEnough(lines + [Rect(x: 0, y: 60, width: 3, height: 12)], for: [rule]).count, 4)
    }
}
