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
    /// The agent's event stream (`SHOTGUARD_EVENTS`): one JSON object a line per decision.
    let eventsURL: URL
    let spool: URL
    private var linesRead = 0
    private let outputChanges: FileChanges
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `shotguard watch --json --verbose --spool SPOOL` plus `arguments`, with `HOME`
    /// in the sandbox (also its working folder) and `DISPLAY` set, and waits until it says it
    /// is watching. `spoolArgument` is what `--spool` is given (the absolute SPOOL by default);
    /// `environment` adds variables (a D-Bus session's address).
    /// `indicator`: whether the recording mark may show. Off unless a test looks at it: a test
    /// that reads the screen twice for its own comparisons is a recorder to the agent, and the
    /// mark would then show in one of the two images and not in the other.
    init(_ arguments: [String], sandbox: Sandbox, display: String, spoolArgument: String? = nil,
         environment: [String: String] = [:], indicator: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        spool = sandbox.home.appendingPathComponent("spool")
        stdoutURL = sandbox.home.appendingPathComponent("agent.out")
        stderrURL = sandbox.home.appendingPathComponent("agent.err")
        eventsURL = sandbox.home.appendingPathComponent("agent.events")
        for url in [stdoutURL, stderrURL, eventsURL] { try Data().write(to: url) }
        process.executableURL = try shotguardBinary(file: file, line: line)
        process.arguments = ["watch", "--json", "--verbose", "--spool", spoolArgument ?? spool.path] + (indicator ? [] : ["--no-indicator"])
            + arguments
        process.environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": sandbox.home.path, "XDG_CONFIG_HOME": sandbox.home.appendingPathComponent(".config").path,
            "XDG_CONFIG_DIRS": sandbox.home.appendingPathComponent("xdg").path,
            "DISPLAY": display, "SHOTGUARD_EVENTS": eventsURL.path,
        ].merging(environment) { _, added in added }
        process.currentDirectoryURL = sandbox.home
        process.standardInput = FileHandle.nullDevice
        let output = try FileHandle(forWritingTo: stdoutURL), errors = try FileHandle(forWritingTo: stderrURL)
        process.standardOutput = output
        process.standardError = errors
        outputChanges = try FileChanges([stdoutURL.path, stderrURL.path, eventsURL.path])
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // The agent has its own copies: these, left open, would go to every program the tests
        // start later (a scrot then "writes" the logs of agents long gone).
        try? output.close()
        try? errors.close()
        guard waitForEvent("watching") else { throw FixtureError("the agent did not start: \(log)") }
    }

    deinit { if process.isRunning { process.terminate(); process.waitUntilExit() } }

    var log: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// The decisions the agent made so far, oldest first (see EventStream).
    var events: [[String: Any]] { EventFile.read(eventsURL) }

    /// Waits (bounded) until at least `count` events named `name` (and meeting `condition`)
    /// were said; false on timeout.
    func waitForEvent(_ name: String, count: Int = 1, seconds: Double = 10,
                      where condition: @escaping ([String: Any]) -> Bool = { _ in true }) -> Bool {
        outputChanges.wait(seconds: seconds) {
            self.events.filter { $0["event"] as? String == name && condition($0) }.count >= count
        }
    }

    /// Waits (bounded) until `condition` holds, looked at again as the agent's output (its
    /// events among it) grows; false on timeout.
    func wait(seconds: Double = 10, until condition: () -> Bool) -> Bool {
        outputChanges.wait(seconds: seconds, until: condition)
    }

    /// The events named `name` (and meeting `condition`) said so far, oldest first.
    func events(_ name: String, where condition: ([String: Any]) -> Bool = { _ in true }) -> [[String: Any]] {
        EventFile.named(name, in: events, where: condition)
    }

    /// Waits (bounded) until the examination of `name` (a file's path, or "the clipboard image")
    /// ended — not a look that plans another (`look-again`, `read-again`) — in a way that meets
    /// `condition`; that `examined` event, or nil on timeout.
    func waitForExamined(_ name: String, seconds: Double = 10,
                         where condition: @escaping ([String: Any]) -> Bool = { _ in true }) -> [String: Any]? {
        let matches = { (event: [String: Any]) in
            event["name"] as? String == name && !["look-again", "read-again"].contains(event["outcome"] as? String ?? "") && condition(event)
        }
        guard waitForEvent("examined", seconds: seconds, where: matches) else { return nil }
        return events("examined", where: matches).first
    }

    /// Waits (bounded) until guard rewrote the file at `path` redacted; false on timeout.
    func waitForRewrite(of path: String, seconds: Double = 10) -> Bool {
        waitForExamined(path, seconds: seconds) { $0["file"] as? String == "rewritten" } != nil
    }

    /// Waits (bounded) until guard had replaced a clipboard image with its redacted image
    /// `count` times in all; false on timeout.
    func waitForClipboardReplaced(count: Int = 1, seconds: Double = 10) -> Bool {
        waitForEvent("examined", count: count, seconds: seconds) { $0["clipboard"] as? String == "replaced" }
    }

    /// When the event was said (its `time`), for the figures a test prints.
    static func time(of event: [String: Any]?) -> Date? {
        (event?["time"] as? Double).map { Date(timeIntervalSince1970: $0) }
    }

    /// Waits (bounded) until the shield's covers came down `count` times in all (the sentinel
    /// said none is up); false on timeout.
    func waitForCoversDown(count: Int = 1, seconds: Double = 10) -> Bool {
        waitForEvent("covers-shown", count: count, seconds: seconds) { $0["covers"] as? Int == 0 }
    }

    /// Waits (bounded) until every candidate examined so far has had its capture event settle:
    /// the agent has finished with what it was given. False on timeout.
    func waitUntilSettled(examined count: Int, seconds: Double = 10) -> Bool {
        outputChanges.wait(seconds: seconds) {
            let events = self.events.map { $0["event"] as? String ?? "" }
            guard events.filter({ $0 == "examined" }).count >= count, let last = events.lastIndex(of: "examined") else { return false }
            return events[last...].contains("settled")
        }
    }

    /// How many capture events settled so far: a negative check ("no second report") waits for
    /// the event that settles after the signal it is about, then looks.
    var settledCount: Int { events.filter { $0["event"] as? String == "settled" }.count }

    /// Waits (bounded) until the log contains `text`; false on timeout. Only for tests of the
    /// log's own wording (its escaping, a message that is the feature): every other test waits
    /// on an event.
    func waitForLog(_ text: String, seconds: Double) -> Bool {
        outputChanges.wait(seconds: seconds) { self.log.contains(text) }
    }

    /// Waits (bounded) until the log contains `text` at least `count` times; false on timeout.
    func waitForLog(_ text: String, count: Int, seconds: Double) -> Bool {
        outputChanges.wait(seconds: seconds) { self.log.components(separatedBy: text).count - 1 >= count }
    }

    /// The next line of `type` (a screenshot's report by default; `recording`, or nil for any),
    /// decoded, with its image; nil when none comes within `seconds`. Lines of other types are
    /// passed over: a test that grabs the screen twice while the agent runs is a recorder too.
    func nextReport(seconds: Double = 10, type: String? = "screenshot") -> (json: [String: Any], image: PixelBuffer?)? {
        var found: [String: Any]?
        _ = outputChanges.wait(seconds: seconds) {
            let text = (try? String(contentsOf: self.stdoutURL, encoding: .utf8)) ?? ""
            // Only whole lines: a read can meet a report's line while the agent is writing it,
            // and a half line, skipped as unreadable, would never be looked at again.
            let lines = text[..<(text.lastIndex(of: "\n") ?? text.startIndex)]
                .split(separator: "\n", omittingEmptySubsequences: true)
            while lines.count > self.linesRead {
                let line = String(lines[self.linesRead])
                self.linesRead += 1
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
                if type == nil || object["type"] as? String == type {
                    found = object
                    return true
                }
            }
            return false
        }
        guard let object = found else { return nil }
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
