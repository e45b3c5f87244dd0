// Runs a program to its end for a test, its output going through files, and reports what it did.
import Foundation
import XCTest

/// What one run of a program did.
public struct RunResult: Sendable {
    public var status: Int32
    public var stdout: [UInt8]
    public var stderr: String

    public init(status: Int32, stdout: [UInt8], stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Standard output as text (invalid UTF-8 shown as U+FFFD).
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// Standard output's lines; the last is empty when the output ends its line.
    public var lines: [String] { stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}

/// Runs `executable` with `arguments` to the end and returns what it did.
///
/// `environment` replaces this process's when given. Standard input is `stdin` (empty when
/// nil); standard output and error go through files, so a large output can never fill a pipe
/// and stall the child. A run that outlives `timeout` seconds is terminated and fails the test,
/// and so does a run killed by a signal: both are hangs or crashes, never results.
public func runProgram(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                       stdin: [UInt8]? = nil, in directory: URL? = nil, timeout: TimeInterval = 120,
                       file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
    let capture = try TemporaryFolder(label: "run")
    defer { capture.remove() }
    let inURL = URL(fileURLWithPath: try capture.file("stdin", stdin ?? []))
    let outURL = URL(fileURLWithPath: try capture.file("stdout", []))
    let errURL = URL(fileURLWithPath: try capture.file("stderr", []))

    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = directory }
    let input = try FileHandle(forReadingFrom: inURL)
    let output = try FileHandle(forWritingTo: outURL)
    let errors = try FileHandle(forWritingTo: errURL)
    defer { [input, output, errors].forEach { try? $0.close() } }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    try process.run()
    let command = ([executable.lastPathComponent] + arguments).joined(separator: " ")
    if finished.wait(timeout: .now() + timeout) == .timedOut {
        process.terminate()
        finished.wait()
        XCTFail("\(command) did not finish in \(Int(timeout)) s", file: file, line: line)
    } else if process.terminationReason == .uncaughtSignal {
        XCTFail("\(command) was killed by signal \(process.terminationStatus)", file: file, line: line)
    }
    return RunResult(status: process.terminationStatus, stdout: [UInt8](try Data(contentsOf: outURL)),
                     stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
}

/// Runs `program` (looked up in PATH) to its end and returns its standard output; fails the
/// test with `because` and the program's error output when it cannot run or exits non-zero.
public func programOutput(_ program: String, _ arguments: [String], because: String,
                          file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let result = try runProgram(URL(fileURLWithPath: "/usr/bin/env"), [program] + arguments, file: file, line: line)
    guard result.status == 0 else {
        XCTFail("\(program) \(arguments.joined(separator: " ")) failed: \(because)\n\(result.stderr)", file: file, line: line)
        throw CocoaError(.executableLoad)
    }
    return result.stdoutText
}
