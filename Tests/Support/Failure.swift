// The shape every failed run must have: its exit code, one `shotguard: ` line, and no new files.
import XCTest

/// Asserts that `result` failed with `status`, wrote nothing on standard output, and wrote
/// exactly one line on standard error that starts with `prefix` (which begins `shotguard: `)
/// and contains each of `mentions`. Returns that line.
@discardableResult
public func assertFailure(_ result: RunResult, status: Int32, prefix: String, mentions: [String] = [],
                          file: StaticString = #filePath, line: UInt = #line) -> String {
    XCTAssertEqual(result.status, status, "exit status; stderr: \(result.stderr)", file: file, line: line)
    XCTAssertEqual(result.stdout, [], "nothing on standard output after a failure", file: file, line: line)
    XCTAssertTrue(result.stderr.hasSuffix("\n"), "stderr ends its line: \(result.stderr)", file: file, line: line)
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    XCTAssertEqual(lines.count, 1, "one line on stderr: \(result.stderr)", file: file, line: line)
    XCTAssertTrue(prefix.hasPrefix("shotguard: "), "test mistake: prefix must start 'shotguard: '", file: file, line: line)
    XCTAssertTrue(result.stderr.hasPrefix(prefix), "stderr starts with \(prefix): \(result.stderr)", file: file, line: line)
    for text in mentions {
        XCTAssertTrue(result.stderr.contains(text), "stderr mentions \(text): \(result.stderr)", file: file, line: line)
    }
    return result.stderr
}

/// Asserts that the sandbox holds exactly `expected`: no output and no leftover temporary file.
public func assertOnlyFiles(_ expected: Set<String>, in sandbox: Sandbox, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(sandbox.contents(), expected, "files after the run", file: file, line: line)
}
