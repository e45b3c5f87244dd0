// The agent's reports as `reports list` shows them: each report folder read back from its report.json.
import Glibc
import ShotguardAgent
import ShotguardBase

/// One report in the spool, as its report.json describes it.
struct SpoolReport {
    let id: String
    let folder: String
    /// When the screenshot was taken, as the report says it (UTC, ISO 8601).
    let time: String
    /// `file`, `clipboard` or `fallback` (the agent's own grab).
    let source: String
    /// The screenshot file's path, for a file.
    let original: String?
    /// How many rectangles were redacted.
    let rectangles: Int
    /// What guard did, by what it acted on (`file`, `quarantine`, `clipboard`), in the report's order.
    let guardOutcome: [(String, String)]
    /// Whether image.png is there: a screenshot no rule touched keeps only its report.json.
    let imageKept: Bool

    var imagePath: String { folder + "/image.png" }

    /// `file rewritten, clipboard replaced`, or `no guard` where guard did nothing (`--no-guard`).
    var guardSummary: String {
        guardOutcome.isEmpty ? "no guard" : guardOutcome.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }

    /// The object `reports list --json` prints.
    var json: JSON {
        .object([("id", .string(id)), ("time", .string(time)), ("source", .string(source)),
                 ("original", original.map(JSON.string) ?? .null), ("rectangles", .number(rectangles)),
                 ("guard", guardOutcome.isEmpty ? .null : .object(guardOutcome.map { ($0.0, JSON.string($0.1)) })),
                 ("image", imageKept ? .string(imagePath) : .null), ("report", .string(folder + "/report.json"))])
    }
}

/// A report folder whose report.json cannot be read: its image may still be there.
struct UnreadableReport {
    let id: String
    let folder: String
    let reason: String

    var json: JSON { .object([("id", .string(id)), ("folder", .string(folder)), ("error", .string(reason))]) }
}

enum SpoolReports {
    /// report.json is a few kilobytes; a file far larger is not one the agent wrote.
    static let sizeLimit = 4 << 20

    /// `$XDG_STATE_HOME/shotguard/reports` (else `~/.local/state/shotguard/reports`), where
    /// `watch` keeps its reports without `--spool`.
    static var defaultFolder: String { UserFolders.stateFolder() + "/reports" }

    /// The reports in `retention`'s folder, newest first (their names are their local times).
    static func scan(_ retention: SpoolRetention) -> (reports: [SpoolReport], unreadable: [UnreadableReport]) {
        var reports: [SpoolReport] = []
        var unreadable: [UnreadableReport] = []
        for id in retention.reportNames().reversed() {
            switch read(id: id, in: retention.folder) {
            case .success(let report): reports.append(report)
            case .failure(let error): unreadable.append(UnreadableReport(id: id, folder: retention.folder + "/" + id, reason: error.reason))
            }
        }
        return (reports, unreadable)
    }

    /// Why a report.json could not be read, as the end of a sentence.
    struct ReadError: Error {
        let reason: String
    }

    /// Reads `folder/id/report.json`: a regular file (a link or a FIFO is refused without
    /// being followed or opened for long), at most `sizeLimit` bytes, one JSON object.
    static func read(id: String, in folder: String) -> Result<SpoolReport, ReadError> {
        let reportFolder = folder + "/" + id
        let path = reportFolder + "/report.json"
        let bytes: [UInt8]
        do throws(FileError) {
            let file = try FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            defer { try? file.close() }  // read-only: nothing a close could still lose
            var status = stat()
            guard fstat(file.rawValue, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                return .failure(ReadError(reason: "its report.json is not a regular file"))
            }
            bytes = try file.readAll(limit: sizeLimit)
        } catch {
            return .failure(ReadError(reason: "cannot read its report.json: \(error.message)"))
        }
        guard let fields = JSONValue.parseObject(bytes) else {
            return .failure(ReadError(reason: "its report.json is not a JSON object"))
        }
        guard let time = fields["time"]?.string, let source = fields["image"]?["source"]?.string else {
            return .failure(ReadError(reason: "its report.json has no time or image source"))
        }
        let outcome = ["file", "quarantine", "clipboard"].compactMap { key in
            fields["guard"]?[key]?.string.map { (key, $0) }
        }
        return .success(SpoolReport(id: id, folder: reportFolder, time: time, source: source,
                                    original: fields["image"]?["original"]?.string,
                                    rectangles: fields["redactions"]?.array?.count ?? 0, guardOutcome: outcome,
                                    imageKept: isRegularFile(reportFolder + "/image.png")))
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}
