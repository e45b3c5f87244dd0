// X geometry parsing and resolution: negative offsets, percentages, errors.
import ShotguardImaging
import XCTest

final class GeometryTests: XCTestCase {
    private let screen = Rect(x: 0, y: 0, width: 1920, height: 1080)

    private func resolve(_ text: String, in target: Rect? = nil) throws -> Rect {
        try Geometry.parse(text).resolve(in: target ?? screen)
    }

    func testPlainAndNegativeOffsets() throws {
        XCTAssertEqual(try resolve("300x28+10+20"), Rect(x: 10, y: 20, width: 300, height: 28))
        XCTAssertEqual(try resolve("300x28-0+0"), Rect(x: 1620, y: 0, width: 300, height: 28))
        XCTAssertEqual(try resolve("100x50-10-20"), Rect(x: 1810, y: 1010, width: 100, height: 50))
        XCTAssertEqual(try resolve("=40x30"), Rect(x: 0, y: 0, width: 40, height: 30))
    }

    func testPercentagesRoundSizesOutward() throws {
        XCTAssertEqual(try resolve("25%x100%+0+0"), Rect(x: 0, y: 0, width: 480, height: 1080))
        let odd = Rect(x: 100, y: 100, width: 1001, height: 3)
        XCTAssertEqual(try resolve("25%x50%+0+0", in: odd), Rect(x: 100, y: 100, width: 251, height: 2))
        XCTAssertEqual(try resolve("50%x10-10%+0", in: odd), Rect(x: 100 + 1001 - 501 - 100, y: 100, width: 501, height: 3))
        XCTAssertEqual(try resolve("12.5%x100%+0+0"), Rect(x: 0, y: 0, width: 240, height: 1080))
    }

    func testResultIsClippedToTheTarget() throws {
        let window = Rect(x: 1800, y: 1000, width: 300, height: 200)
        XCTAssertEqual(try resolve("500x500+0+0", in: window), window)
        XCTAssertEqual(try resolve("10x10+400+0", in: window).isEmpty, true)
    }

    func testDescriptionRoundTrips() throws {
        for text in ["300x28-0+0", "25%x100%+0+0", "12.5%x3+4-5"] {
            XCTAssertEqual(try Geometry.parse(text).description, text)
        }
    }

    func testErrorsSayWhatWasExpectedAndWhere() {
        let cases: [(String, Int, String)] = [
            ("", 0, "expected a width"),
            ("300", 3, "expected 'x' after the width"),
            ("300x", 4, "expected a height"),
            ("300x28+5", 8, "expected '+' or '-' before a y offset"),
            ("300x28*5+5", 6, "expected '+' or '-' before an x offset"),
            ("300x28+5+5junk", 10, "unexpected text after the geometry"),
            ("150%x10", 0, "a width percentage must be between 0% and 100%"),
            ("1.5x10", 0, "expected a width; fractions are allowed only in percentages"),
            ("99999999x1", 0, "a width is too large"),
        ]
        for (text, offset, message) in cases {
            XCTAssertThrowsError(try Geometry.parse(text), text) { error in
                let error = error as! GeometrySyntaxError
                XCTAssertEqual(error.offset, offset, text)
                XCTAssertEqual(error.message, "\(message) (a geometry is \(GeometrySyntaxError.expectedForm))", text)
            }
        }
    }
}
