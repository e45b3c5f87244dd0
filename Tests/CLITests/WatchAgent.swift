// Runs `shotguard watch` in the background for a test, and reads its reports as they come.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

/// One running agent: its JSON lines on stdout and its log on stderr go to files the test reads.
final class WatchAgent {
    let process = Process()
    let stdoutURL: URL
    let stderrURL: URL
    let spool: URL
    private var linesRead = 0
    private let outputChanges: FileChanges
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `shotguard watch --json --verbose --spool SPOOL` plus `arguments`, with `HOME`
    /// in the sandbox (also its working folder) and `DISPLAY` set, and waits until it says it
    /// is watching. `spoolArgument` is what `--spool` is given (the absolute SPOOL by default);
    /// `environment` adds variables (a D-Bus session's address).
    init(_ arguments: [String], sandbox: Sandbox, display: String, spoolArgument: String? = nil,
         environment: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws {
        spool = sandbox.home.appendingPathComponent("spool")
        stdoutURL = sandbox.home.appendingPathComponent("agent.out")
        stderrURL = sandbox.home.appendingPathComponent("agent.err")
        for url in [stdoutURL, stderrURL] { try Data().write(to: url) }
        process.executableURL = try shotguardBinary(file: file, line: line)
        process.arguments = ["watch", "--json", "--verbose", "--spool", spoolArgument ?? spool.path] + arguments
        process.environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": sandbox.home.path, "XDG_CONFIG_HOME": sandbox.home.appendingPathComponent(".config").path,
            "XDG_CONFIG_DIRS": sandbox.home.appendingPathComponent("xdg").path,
            "DISPLAY": display,
        ].merging(environment) { _, added in added }
        process.currentDirectoryURL = sandbox.home
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        outputChanges = try FileChanges([stdoutURL.path, stderrURL.path])
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        guard waitForLog("watching display", seconds: 10) else {
            throw FixtureError("the agent did not start: \(log)")
        }
    }

    deinit { if process.isRunning { process.terminate(); process.waitUntilExit() } }

    var log: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Waits (bounded) until the log contains `text`; false on timeout.
    func waitForLog(_ text: String, seconds: Double) -> Bool {
        outputChanges.wait(seconds: seconds) { self.log.contains(text) }
    }

    /// Waits (bounded) until `condition` holds for the log; false on timeout.
    func waitForLog(seconds: Double, until condition: (String) -> Bool) -> Bool {
        outputChanges.wait(seconds: seconds) { condition(self.log) }
    }

    /// Waits (bounded) until the log contains `text` at least `count` times; false on timeout.
    func waitForLog(_ text: String, count: Int, seconds: Double) -> Bool {
        outputChanges.wait(seconds: seconds) { self.log.components(separatedBy: text).count - 1 >= count }
    }

    /// The next report line, decoded, with its image; nil when none comes within `seconds`.
    func nextReport(seconds: Double = 10) -> (json: [String: Any], image: PixelBuffer?)? {
        var found: String?
        _ = outputChanges.wait(seconds: seconds) {
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
        guard exited.wait(timeout: .now() + seconds) == .success else { return nil }
        exited.signal()  // later callers see the exit too
        return process.terminationStatus
    }
}
