// Runs `shotguard watch` in the background for a test, and reads its reports as they come.
import Foundation
import ShotguardImaging
import ShotguardX11
import XCTest

/// One running agent: its JSON lines on stdout and its log on stderr go to files the test reads.
final class WatchAgent {
    let process = Process()
    let stdoutURL: URL
    let stderrURL: URL
    let spool: URL
    private var linesRead = 0

    /// Starts `shotguard watch --json --verbose --spool SPOOL` plus `arguments`, with `HOME`
    /// in the sandbox and `DISPLAY` set, and waits until it says it is watching.
    init(_ arguments: [String], sandbox: Sandbox, display: String, file: StaticString = #filePath, line: UInt = #line) throws {
        spool = sandbox.home.appendingPathComponent("spool")
        stdoutURL = sandbox.home.appendingPathComponent("agent.out")
        stderrURL = sandbox.home.appendingPathComponent("agent.err")
        for url in [stdoutURL, stderrURL] { try Data().write(to: url) }
        process.executableURL = try shotguardBinary(file: file, line: line)
        process.arguments = ["watch", "--json", "--verbose", "--spool", spool.path] + arguments
        process.environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": sandbox.home.path, "XDG_CONFIG_HOME": sandbox.home.appendingPathComponent(".config").path,
            "DISPLAY": display,
        ]
        process.currentDirectoryURL = sandbox.home
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
        guard waitForLog("watching display", seconds: 10) else {
            throw FixtureError("the agent did not start: \(log)")
        }
    }

    deinit { if process.isRunning { process.terminate(); process.waitUntilExit() } }

    var log: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Waits (bounded) until the log contains `text`; false on timeout or when the agent exits.
    func waitForLog(_ text: String, seconds: Double) -> Bool {
        waitUntil(seconds: seconds) { self.log.contains(text) }
    }

    /// The next report line, decoded, with its image; nil when none comes within `seconds`.
    func nextReport(seconds: Double = 10) -> (json: [String: Any], image: PixelBuffer?)? {
        var found: String?
        _ = waitUntil(seconds: seconds) {
            let lines = ((try? String(contentsOf: self.stdoutURL, encoding: .utf8)) ?? "")
                .split(separator: "\n", omittingEmptySubsequences: true)
            guard lines.count > self.linesRead else { return false }
            found = String(lines[self.linesRead])
            self.linesRead += 1
            return true
        }
        guard let found, let object = try? JSONSerialization.jsonObject(with: Data(found.utf8)) as? [String: Any] else {
            return nil
        }
        let image = ((object["image"] as? [String: Any])?["path"] as? String)
            .flatMap { try? Data(contentsOf: URL(fileURLWithPath: $0)) }
            .flatMap { try? PNGDecoder.decode([UInt8]($0), source: "report") }
        return (object, image)
    }

    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the agent to exit (bounded); its exit status, or nil if it is still running.
    func waitForExit(seconds: Double) -> Int32? {
        guard waitUntil(seconds: seconds, { !self.process.isRunning }) else { return nil }
        return process.terminationStatus
    }
}

/// Polls `condition` every 20 ms for at most `seconds`: a bounded wait for something another
/// process does, where no event reaches the test.
func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `command` through /bin/sh with `DISPLAY` set (scrot, maim, xclip...); fails on non-zero.
/// Spawned with posix_spawn, not Foundation's Process: `xclip` leaves a daemon behind that keeps
/// the descriptors Process waits on open, and Process.waitUntilExit then never returns.
func runTool(_ command: String, display: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let child = try ChildProcess("/bin/sh", ["-c", command], environment: ["DISPLAY": display], output: .standardError)
    XCTAssertEqual(child.waitForExit(), 0, "\(command) failed", file: file, line: line)
}
