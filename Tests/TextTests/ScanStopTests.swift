// A scan asked to stop starts no further line, and says what it left; one in the background reads as one in front.
import ShotguardImaging
@testable import ShotguardText
import XCTest

final class ScanStopTests: XCTestCase {
    /// A reading ahead of any screenshot gives way to the screenshot's own: once its `stop` says
    /// so, no line is read, and every line is counted as left, so it is not taken as complete.
    func testAScanToldToStopReadsNoFurtherLineAndSaysWhatItLeft() throws {
        let screen = try XCTUnwrap(try Corpus.load().first { $0.name == "04-light.png" }).image
        let scanner = TextScanner(rules: [TextRule(kind: .card, line: 1)])
        let stopped = try scanner.scan(screen, origin: screen.bounds, stop: { true })
        XCTAssertGreaterThan(stopped.linesLeft, 20, "the screen's lines, all left")
        XCTAssertEqual(stopped.linesRead, 0)
        XCTAssertFalse(stopped.isComplete)
        XCTAssertEqual(stopped.hits, [])
    }

    /// On threads of the lowest priority the same lines are read and the same covers found as on
    /// the caller's: priority changes when OCR runs, never what it finds.
    func testAScanInTheBackgroundFindsWhatOneInFrontFinds() throws {
        let screen = try XCTUnwrap(try Corpus.load().first { $0.name == "05-dark.png" }).image
        let rules = [TextRule(kind: .card, line: 1), TextRule(kind: .email, line: 2)]
        let front = try TextScanner(rules: rules).scan(screen, origin: screen.bounds)
        let background = try TextScanner(rules: rules).scan(screen, origin: screen.bounds, background: true)
        XCTAssertTrue(background.isComplete)
        XCTAssertEqual(background.linesRead, front.linesRead)
        XCTAssertLessThan(background.linesRemembered * 10, background.linesRead, "only lines shown twice on the screen")
        XCTAssertFalse(front.hits.isEmpty, "the screen shows card numbers and addresses")
        XCTAssertEqual(Set(background.hits), Set(front.hits))
    }
}
