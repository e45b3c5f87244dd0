// Match conditions on their own, apart from the parser.

import XCTest
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

final class MatchTests: XCTestCase {
    private let window = WindowInfo(id: 1, className: "Google-chrome", instance: "google-chrome",
                                    title: "Inbox (3) - Mail", frame: Rect(x: 0, y: 0, width: 1, height: 1),
                                    isViewable: true)

    func testClassAndInstanceIgnoreCase() {
        XCTAssertTrue(Match.className("google-CHROME").matches(window))
        XCTAssertFalse(Match.className("google").matches(window))
        XCTAssertTrue(Match.instance("Google-Chrome").matches(window))
        XCTAssertFalse(Match.instance("chrome").matches(window))
    }

    func testClassAndInstanceAreNotSwapped() {
        let swapped = WindowInfo(id: 2, className: "Slack", instance: "slack-instance", title: "",
                                 frame: window.frame, isViewable: true)
        XCTAssertTrue(Match.className("slack").matches(swapped))
        XCTAssertFalse(Match.instance("slack").matches(swapped))
    }

    func testTitleIsExact() {
        XCTAssertTrue(Match.title("Inbox (3) - Mail").matches(window))
        XCTAssertFalse(Match.title("inbox (3) - mail").matches(window))
        XCTAssertFalse(Match.title("Inbox").matches(window))
    }

    func testTitlePattern() throws {
        XCTAssertTrue(Match.titlePattern(try TitlePattern(#"\(\d+\)"#)).matches(window))
        XCTAssertFalse(Match.titlePattern(try TitlePattern("^Mail")).matches(window))
        XCTAssertTrue(Match.titlePattern(try TitlePattern("(?i)MAIL$")).matches(window))
    }

    func testBadPatternThrowsOneLineReason() {
        XCTAssertThrowsError(try TitlePattern("[a-")) { error in
            let message = (error as? TitlePatternSyntaxError)?.message ?? ""
            XCTAssertFalse(message.isEmpty)
            XCTAssertFalse(message.contains("\n"))
        }
    }

    func testRuleNeedsEveryMatch() throws {
        let rule = Rule(line: 1, target: .window,
                        matches: [.className("google-chrome"), .title("nope")], source: "")
        XCTAssertFalse(rule.matches(window))
        let other = Rule(line: 1, target: .window,
                         matches: [.className("google-chrome"), .instance("GOOGLE-chrome")], source: "")
        XCTAssertTrue(other.matches(window))
    }
}
