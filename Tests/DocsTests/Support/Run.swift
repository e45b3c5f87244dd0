// Runs programs for the docs tests: the built shotguard, mandoc, the shells, make.
import Foundation
import XCTest

/// What one run of a program did.
struct RunOutput {
    var status: Int32
    var stdout: String
    var stderr: String

    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}

/// The checkout that holds this file (Tests/DocsTests/Support/Run.swift).
let repository: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url
}()

/// A file of the checkout, e.g. `man/shotguard.1`.
func repositoryFile(_ path: String) -> URL { repository.appendingPathComponent(path) }

/// The environment the docs tests give a program: PATH, a private HOME and system config
/// folder, a fixed locale, and no DISPLAY, so that nothing depends on the desktop (or the
/// system policy) of the machine the tests happen to run on.
func testEnvironment(home: URL, path: String? = nil) -> [String: String] {
    [
        "PATH": path ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        "HOME": home.path,
        "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
        "XDG_CONFIG_DIRS": home.appendingPathComponent("xdg").path,
        "LC_ALL": "C.UTF-8",
        "TERM": "xterm",
    ]
}

/// A program on PATH, or nil.
func findTool(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
}

/// A program on PATH; a test failure (not a skip) when it is missing, since CI installs it.
func requireTool(_ name: String, package: String, file: StaticString = #filePath, line: UInt = #line) throws -> URL {
    guard let tool = findTool(name) else {
        XCTFail("\(name) is not installed (Debian package \(package); scripts/install-deps.sh installs it)",
                file: file, line: line)
        throw CocoaError(.fileNoSuchFile)
    }
    return tool
}

/// Runs `executable` to the end, its output going through files so that no pipe can fill and
/// stall it. A run that outlives `timeout` seconds is terminated and fails the test.
func runProgram(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil, in directory: URL? = nil,
         timeout: TimeInterval = 120, file: StaticString = #filePath, line: UInt = #line) throws -> RunOutput {
    let capture = try temporaryFolder("run")
    defer { try? FileManager.default.removeItem(at: capture) }
    let outURL = capture.appendingPathComponent("stdout")
    let errURL = capture.appendingPathComponent("stderr")
    for url in [outURL, errURL] { try Data().write(to: url) }

    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = directory }
    let output = try FileHandle(forWritingTo: outURL)
    let errors = try FileHandle(forWritingTo: errURL)
    defer { [output, errors].forEach { try? $0.close() } }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = errors
    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    try process.run()
    if finished.wait(timeout: .now() + timeout) == .timedOut {
        process.terminate()
        finished.wait()
        XCTFail("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) did not finish in \(Int(timeout)) s",
                file: file, line: line)
    }
    return RunOutput(status: process.terminationStatus,
                     stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                     stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
}

/// A new empty folder under the temporary folder; the caller removes it.
func temporaryFolder(_ label: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("shotguard-docs-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

extension XCTestCase {
    /// A temporary folder removed when the test ends.
    func scratchFolder(_ label: String) throws -> URL {
        let url = try temporaryFolder(label)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
