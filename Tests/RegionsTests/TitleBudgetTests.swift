// title~ patterns in bounded time: a decided answer within PCRE2's budget, or undecided, redacted.
import ShotguardText
import ShotguardImaging
import ShotguardRegions
import XCTest
import ShotguardScreen

final class TitleBudgetTests: XCTestCase {
    private func window(_ id: UInt, title: String) -> WindowInfo {
        WindowInfo(id: id, className: "Firefox", instance: "navigator", title: title,
                   frame: Rect(x: 0, y: 0, width: 10, height: 10), isViewable: true)
    }

    /// With Swift's Regex this backtracked for more than 20 s; PCRE2's match limit stops it,
    /// and a title whose match cannot be decided counts as a match.
    func testCatastrophicBacktrackingIsUndecidedAndCountsAsAMatch() throws {
        let pattern = try TitlePattern("(a+)+$")
        let title = String(repeating: "a", count: 21) + "!"
        XCTAssertEqual(pattern.evaluate(title), .undecided)
        XCTAssertTrue(pattern.matches(title))
        XCTAssertEqual(pattern.evaluate("aaa"), .match)
    }

    /// `.*bank.*` on a long title took quadratic time; PCRE2 decides it, case ignored.
    func testDotStarOnALongTitleIsDecided() throws {
        let pattern = try TitlePattern("(?i).*bank.*")
        let long = String(repeating: "x", count: TitlePattern.maximumTitleBytes - 10)
        XCTAssertEqual(pattern.evaluate(long), .noMatch)
        XCTAssertEqual(pattern.evaluate(long + "My BANK"), .match)
    }

    /// A title longer than the examined length is undecided: its end is never looked at.
    func testTitleOverTheCapIsUndecided() throws {
        let pattern = try TitlePattern("bank")
        XCTAssertEqual(pattern.evaluate(String(repeating: "x", count: 16_000)), .undecided)
    }

    func testPerlSyntaxAndUnicode() throws {
        XCTAssertEqual(try TitlePattern(#"^\d+ unread"#).evaluate("12 unread – Mail"), .match)
        XCTAssertEqual(try TitlePattern("(?i)café").evaluate("CAFÉ menu"), .match)
        XCTAssertEqual(try TitlePattern("^.$").evaluate("é"), .match, "one character, not two bytes")
        XCTAssertEqual(try TitlePattern("bank").evaluate(""), .noMatch)
    }

    /// The resolver redacts an undecided window and names it, so the caller can log it once.
    func testResolverRedactsAndReportsUndecidedWindows() throws {
        let regions = try RegionsFile.parse(#"window title~"(a+)+$"\#nwindow class=Firefox title~bank"#, path: "r")
        let context = ScreenContext(width: 100, height: 100, windows: [
            window(7, title: String(repeating: "a", count: 24) + "!"), window(8, title: "plain"),
        ])
        let resolutions = regions.resolve(against: context)
        // Window 8 lies over window 7: the rule names 7 (its zone), and nothing of it shows.
        XCTAssertEqual(resolutions[0].zones.map(\.windowID), [7])
        XCTAssertEqual(resolutions[0].undecided, [7])
        XCTAssertEqual(resolutions[1].hits, [])
        XCTAssertEqual(regions.undecided(against: context).map(\.windows), [[7]])
        XCTAssertEqual(regions.undecided(against: context).map(\.rule.line), [1])
    }
}
