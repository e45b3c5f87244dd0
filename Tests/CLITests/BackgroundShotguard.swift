// Runs a shotguard command in the background for a test: its standard error read as it comes, signals sent, its exit awaited.
import Foundation
import ShotguardTestSupport
import XCTest

/// One running `shotguard` (not the agent: `WatchAgent` is that), with the test environment,
/// `DISPLAY` set, the sandbox as home and working folder, standard error in a file, and its
/// event stream (`SHOTGUARD_EVENTS`, for the commands that say one) in another.
final class BackgroundShotguard {
    let process = Process()
    let stderrURL: URL
    let eventsURL: URL
    private let changes: FileChanges
    private let exited = DispatchSemaphore(value: 0)

    init(_ arguments: [String], sandbox: Sandbox, display: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let name = "shotguard-\(UUID().uuidString)"
        stderrURL = sandbox.home.appendingPathComponent(name + ".err")
        eventsURL = sandbox.home.appendingPathComponent(name + ".events")
        for url in [stderrURL, eventsURL] { try Data().write(to: url) }
        process.executableURL = try shotguardBinary(file: file, line: line)
        process.arguments = arguments
        process.environment = testEnvironment(home: sandbox.home).merging(["DISPLAY": display, "SHOTGUARD_EVENTS": eventsURL.path]) {
            _, added in added
        }
        process.currentDirectoryURL = sandbox.home
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        changes = try FileChanges([stderrURL.path, eventsURL.path])
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
    }

    deinit { if process.isRunning { process.terminate(); process.waitUntilExit() } }

    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// What the command said on its event stream so far, oldest first.
    var events: [[String: Any]] { EventFile.read(eventsURL) }

    /// Waits (bounded) until an event named `name` (and meeting `condition`) was said; false on timeout.
    func waitForEvent(_ name: String, seconds: Double = 10, where condition: @escaping ([String: Any]) -> Bool = { _ in true }) -> Bool {
        changes.wait(seconds: seconds) { !EventFile.named(name, in: self.events, where: condition).isEmpty }
    }

    /// Waits (bounded) until standard error contains `text`; false on timeout.
    func waitForStderr(_ text: String, seconds: Double = 10) -> Bool {
        changes.wait(seconds: seconds) { self.stderr.contains(text) }
    }

    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the exit (bounded); the exit status, or nil if it still runs.
    func waitForExit(seconds: Double = 10) -> Int32? {
        guard exited.wait(timeout: .now() + seconds) == .success else { return nil }
        exited.signal()
        return process.terminationStatus
    }
}

/// A named pipe in the sandbox: a command that reads it waits until the test writes a line.
struct Gate {
    let path: String

    init(_ sandbox: Sandbox, name: String = "gate") throws {
        path = sandbox.path(name)
        guard mkfifo(path, 0o600) == 0 else { throw FixtureError("mkfifo \(path): \(String(cString: strerror(errno)))") }
    }

    /// Lets the reader go on: opening for writing waits for it to open the pipe too.
    func open() throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.write(Data("go\n".utf8))
        try handle.close()
    }
}
