// A screen scanned again, or scrolled, is read from what OCR read of its lines before.
import ShotguardImaging
@testable import ShotguardText
import XCTest

final class LineCacheTests: XCTestCase {
    func testAScreenScannedAgainOrScrolledIsReadFromTheLinesSeenBefore() throws {
        let screen = try XCTUnwrap(try Corpus.load().first { $0.name == "02-light.png" }).image
        let scanner = TextScanner(rules: [TextRule(kind: .card, line: 1), TextRule(kind: .email, line: 2)])
        let first = try scanner.scan(screen, origin: screen.bounds)
        XCTAssertGreaterThan(first.linesRead, 20)
        XCTAssertLessThan(first.linesRemembered * 10, first.linesRead, "nothing seen before (but a line that shows twice)")
        let again = try scanner.with(rules: scanner.rules).scan(screen, origin: screen.bounds)
        XCTAssertEqual(again.linesRemembered, again.linesRead, "every line seen before")
        XCTAssertEqual(Set(again.hits), Set(first.hits), "the same covers")
        // Scrolled up by 37 rows: the lines that stayed on screen moved, unchanged.
        let scrolled = screen.cropped(to: Rect(x: 0, y: 37, width: screen.width, height: screen.height - 37))
        let moved = try scanner.scan(scrolled, origin: scrolled.bounds)
        XCTAssertGreaterThan(moved.linesRemembered * 10, moved.linesRead * 6, "most lines read before, elsewhere")
        let expected = Set(first.hits.map { Rect(x: $0.rect.x, y: $0.rect.y - 37, width: $0.rect.width, height: $0.rect.height) }
            .filter { $0.y >= 0 })
        XCTAssertTrue(expected.isSubset(of: Set(moved.hits.map(\.rect))), "the covers moved with their lines")
    }
}
