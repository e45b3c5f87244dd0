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

/// Decimals in log lines: the same rounding as JSON, and never a trap.
final class DecimalTextTests: XCTestCase {
    func testDecimalsAreRoundedAndPadded() {
        XCTAssertEqual(String(decimal: 12.345, digits: 1), "12.3")
        XCTAssertEqual(String(decimal: 0.1234, digits: 3), "0.123")
        XCTAssertEqual(String(decimal: 2, digits: 3), "2.000")
        XCTAssertEqual(String(decimal: -0.04, digits: 1), "0.0")
    }

    /// `String(format1:)` trapped here: a measurement of nothing divides by zero.
    func testValuesThatAreNotFiniteAreWrittenNotTrapped() {
        XCTAssertEqual(String(decimal: .nan, digits: 1), "nan")
        XCTAssertEqual(String(decimal: .infinity, digits: 3), "inf")
        XCTAssertEqual(String(decimal: -.infinity, digits: 0), "-inf")
        XCTAssertEqual(String(decimal: 1e300, digits: 1), "1e+300")
        XCTAssertEqual(JSON.decimal(.infinity, digits: 3).text, "null")
    }
}
