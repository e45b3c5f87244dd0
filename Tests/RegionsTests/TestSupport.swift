// Helpers shared by the regions tests: parse with a fixed path, and capture an error's text.

import XCTest
import ShotguardRegions

/// Parses `text` as a file named `regions`.
func parse(_ text: String) throws -> RegionsFile {
    try RegionsFile.parse(text, path: "regions")
}

/// The rule parsed from a one-rule file.
func rule(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> Rule {
    let parsed = try parse(text)
    XCTAssertEqual(parsed.rules.count, 1, "expected one rule in \(text)", file: file, line: line)
    return try XCTUnwrap(parsed.rules.first, file: file, line: line)
}

/// The `description` of the error parsing `text` throws, or a test failure when it parses.
func parseError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
    do {
        let parsed = try RegionsFile.parse(text, path: "regions")
        XCTFail("expected an error, got \(parsed.rules.count) rules from \(text)", file: file, line: line)
        return nil
    } catch {
        return error.description
    }
}
