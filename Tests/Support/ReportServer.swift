// A report receiver on 127.0.0.1 for the reporter tests (Tests/Scripts/report-server.py), and what it logged.
import Foundation
import Glibc
import ShotguardBase

/// One run of report-server.py: it listens on the loopback address, parses every request as a
/// Sentry envelope or a multipart form, saves the payloads and logs one JSON line a request.
/// Stopping it and starting another on the same `port` is a service that went down and came back.
public final class ReportServer {
    public let folder: URL
    public let port: Int
    public let logURL: URL
    private let process: ChildProcess
    private let changes: FileChanges

    /// Starts the server; `port` 0 takes a free port. `answers` are the statuses of the first
    /// requests (`500`, `429:1` for a Retry-After of 1 s); `hold` holds the first request until
    /// its client goes away or `release()`.
    public init(folder: URL, port: Int = 0, answers: [String] = [], hold: Bool = false) throws {
        self.folder = folder
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("saved"), withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("requests.jsonl")
        logURL = log
        if !FileManager.default.fileExists(atPath: log.path) { try Data().write(to: log) }
        let portFile = folder.appendingPathComponent("port")
        var arguments = [repositoryFile("Tests/Scripts/report-server.py").path, "--port", String(port), "--port-file", portFile.path,
                         "--log", log.path, "--save", folder.appendingPathComponent("saved").path,
                         "--release", folder.appendingPathComponent("release").path]
        if !answers.isEmpty { arguments += ["--answers", answers.joined(separator: ",")] }
        if hold { arguments.append("--hold") }
        let changes = try FileChanges([log.path])
        self.changes = changes
        let readyBefore = Self.readyLines(log).count
        let child = try ChildProcess("/usr/bin/python3", arguments, output: .standardError)
        process = child
        // It logs {"ready": PORT} once it listens: wait for that line (bounded).
        var found: Int?
        _ = changes.wait(seconds: 10) {
            let ready = Self.readyLines(log)
            if ready.count > readyBefore { found = ready.last }
            return found != nil || child.hasExited
        }
        guard let found else { throw FixtureError("report-server.py did not start (no ready line in \(log.path))") }
        self.port = found
    }

    deinit { process.stop() }

    /// `http://127.0.0.1:PORT` and `path`.
    public func url(_ path: String = "/hook") -> String { "http://127.0.0.1:\(port)\(path)" }

    /// A Sentry DSN whose envelope endpoint is this server (project 42).
    public var dsn: String { "http://0123456789abcdef@127.0.0.1:\(port)/42" }

    /// Stops the server (the service goes down).
    public func stop() { process.stop() }

    /// Lets a held request be answered.
    public func release() throws { try Data().write(to: folder.appendingPathComponent("release")) }

    /// Every request logged so far, in the order they came (`n`; a run started again on the same
    /// folder goes on counting after the last): each is logged as it is answered, by its own thread.
    public var requests: [[String: Any]] {
        Self.lines(logURL).enumerated().filter { $0.element["n"] != nil }
            .sorted { ($0.element["run"] as? Int ?? 0, $0.element["n"] as? Int ?? 0, $0.offset)
                < ($1.element["run"] as? Int ?? 0, $1.element["n"] as? Int ?? 0, $1.offset) }.map(\.element)
    }

    private static func lines(_ url: URL) -> [[String: Any]] {
        ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    private static func readyLines(_ url: URL) -> [Int] { lines(url).compactMap { $0["ready"] as? Int } }

    /// The requests that were answered with a 2xx (delivered).
    public var delivered: [[String: Any]] {
        requests.filter { ($0["status"] as? Int).map { (200..<300).contains($0) } ?? false && $0["answered"] as? Bool == true }
    }

    /// Waits (bounded) until `condition` holds for the logged requests.
    public func wait(seconds: Double = 20, until condition: ([[String: Any]]) -> Bool) -> Bool {
        changes.wait(seconds: seconds) { condition(self.requests) }
    }
}

extension Dictionary where Key == String, Value == Any {
    /// The report id a logged request carries: the envelope's report.json or the form's report part.
    public var reportID: String? {
        let file = ((self["parts"] as? [[String: Any]])?.first { $0["name"] as? String == "report" }?["file"] as? String)
            ?? ((self["items"] as? [[String: Any]])?.first { $0["filename"] as? String == "report.json" }?["file"] as? String)
        guard let file, let data = FileManager.default.contents(atPath: file),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["id"] as? String
    }

    /// The path of the image a logged request carried, when it carried one.
    public var imageFile: String? {
        ((self["parts"] as? [[String: Any]])?.first { $0["name"] as? String == "image" }?["file"] as? String)
            ?? ((self["items"] as? [[String: Any]])?.first { $0["content_type"] as? String == "image/png" }?["file"] as? String)
    }
}
