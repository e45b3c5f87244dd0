// Runs the built `shotguard` binary as a subprocess with a controlled environment, capturing its output.
import Foundation
import XCTest

/// What one run of `shotguard` did.
struct RunResult {
    var status: Int32
    var stdout: [UInt8]
    var stderr: String

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
}

/// Runs the built `shotguard` executable.
///
/// The child gets only `PATH`, `HOME`, `XDG_CONFIG_HOME` and `XDG_CONFIG_DIRS` (no `DISPLAY`, so no
/// X server, no user regions file and no system policy of the machine can leak in; system
/// policy files go in `home/xdg/shotguard/regions`), plus `environment`, where a nil value
/// removes the variable.
/// Standard input is `stdin` (empty when nil); output goes through files, so a large PNG on
/// standard output can never fill a pipe and stall the child.
func runShotguard(
    _ arguments: [String], home: URL, stdin: [UInt8]? = nil, environment: [String: String?] = [:],
    in directory: URL? = nil, file: StaticString = #filePath, line: UInt = #line
) throws -> RunResult {
    let capture = FileManager.default.temporaryDirectory
        .appendingPathComponent("shotguard-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: capture, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: capture) }
    let inURL = capture.appendingPathComponent("stdin")
    let outURL = capture.appendingPathComponent("stdout")
    let errURL = capture.appendingPathComponent("stderr")
    try Data(stdin ?? []).write(to: inURL)
    for url in [outURL, errURL] { try Data().write(to: url) }

    var variables = [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        "HOME": home.path,
        "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
        "XDG_CONFIG_DIRS": home.appendingPathComponent("xdg").path,
    ]
    for (name, value) in environment { variables[name] = value }

    let process = Process()
    process.executableURL = try shotguardBinary(file: file, line: line)
    process.arguments = arguments
    process.environment = variables
    process.currentDirectoryURL = directory ?? home
    let input = try FileHandle(forReadingFrom: inURL)
    let output = try FileHandle(forWritingTo: outURL)
    let errors = try FileHandle(forWritingTo: errURL)
    defer { [input, output, errors].forEach { try? $0.close() } }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationReason, .exit, "shotguard was killed by signal \(process.terminationStatus)",
                   file: file, line: line)
    return RunResult(status: process.terminationStatus,
                     stdout: [UInt8](try Data(contentsOf: outURL)),
                     stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
}

/// The `shotguard` executable built alongside these tests.
///
/// SwiftPM puts the test bundle and the executables in one products folder. On macOS the
/// bundle is a `.xctest` folder inside it; on Linux `Bundle(for:)` answers the products folder
/// itself (the bundle is a plain executable there). Walking up from this file to
/// `.build/debug` is the fallback for a default build folder.
func shotguardBinary(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
    let bundle = Bundle(for: BinaryLocator.self).bundleURL
    let products = bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
    var candidates = [products.appendingPathComponent("shotguard")]
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while folder.path != "/" {
        candidates.append(folder.appendingPathComponent(".build/debug/shotguard"))
        folder.deleteLastPathComponent()
    }
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        let tried = candidates.prefix(2).map(\.path).joined(separator: ", ")
        XCTFail("the shotguard binary was not built (looked in \(tried), ...); build with --build-tests",
                file: file, line: line)
        throw CocoaError(.fileNoSuchFile)
    }
    return found
}

/// A class to ask `Bundle(for:)` where the test bundle is.
private final class BinaryLocator {}
