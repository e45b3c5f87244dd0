// The report's fixed-decimal numbers, for any double a measurement could produce.
import ShotguardBase
import XCTest

final class JSONDecimalTests: XCTestCase {
    func testDecimalsAreRoundedToTheirDigits() {
        XCTAssertEqual(JSON.decimal(12.34567, digits: 3).text, "12.346")
        XCTAssertEqual(JSON.decimal(-0.0004, digits: 3).text, "0.000")
        XCTAssertEqual(JSON.decimal(-1.5, digits: 0).text, "-2")
        XCTAssertEqual(JSON.decimal(.nan, digits: 3).text, "null")
    }

    /// A delay of 1e300 ms used to trap converting to Int64 (found by fuzz-report).
    func testDecimalTooLargeForSixtyFourBitsIsWrittenInShortForm() {
        XCTAssertEqual(JSON.decimal(1e300, digits: 3).text, "1e+300")
        XCTAssertEqual(JSON.decimal(-9.3e15, digits: 3).text, "-9.3e+15")
        XCTAssertEqual(JSON.decimal(9e15, digits: 3).text, "9000000000000000.000")
    }
}
