// The programs from Debian packages that tests drive (xdotool, xrandr, xprop, scrot, mandoc...).
import Foundation
import ShotguardBase
import XCTest

/// A program on PATH, or nil.
public func findTool(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
}

/// A program on PATH; a test failure (not a skip) when it is missing, since CI installs it.
public func requireTool(_ name: String, package: String, file: StaticString = #filePath, line: UInt = #line) throws -> URL {
    guard let tool = findTool(name) else {
        let message = "\(name) is not installed (Debian package \(package); scripts/install-deps.sh installs it)"
        XCTFail(message, file: file, line: line)
        throw FixtureError(message)
    }
    return tool
}

/// Runs `program` with `arguments` and `DISPLAY` set, waits for it, and fails the test unless
/// it exits 0. For what the library does not expose: xdotool's focus, unmap and raise, xrandr's
/// monitors, xprop's properties.
///
/// Spawned with posix_spawn, not Foundation's Process: `xclip` leaves a daemon behind that keeps
/// the descriptors Process waits on open, and Process.waitUntilExit then never returns.
public func runTool(_ program: String, _ arguments: [String], display: String,
                    file: StaticString = #filePath, line: UInt = #line) throws {
    guard programExists(program) else { throw FixtureError("\(program) is not installed; this test needs it") }
    let child = try ChildProcess(program, arguments, environment: ["DISPLAY": display], output: .standardError)
    XCTAssertEqual(child.waitForExit(), 0, "\(program) \(arguments.joined(separator: " ")) failed", file: file, line: line)
}

/// Runs `command` through /bin/sh with `DISPLAY` set (scrot, maim, xclip, a pipeline...), and
/// fails the test unless it exits 0.
public func runTool(_ command: String, display: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let child = try ChildProcess("/bin/sh", ["-c", command], environment: ["DISPLAY": display], output: .standardError)
    XCTAssertEqual(child.waitForExit(), 0, "\(command) failed", file: file, line: line)
}
