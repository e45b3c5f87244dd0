// When the agent logged a line: its log's local timestamps read back, for the figures tests print.
import Foundation

enum LogTimes {
    /// The time of the first line of `log` that contains `text`, from its `2026-11-29 14:07:03.120`
    /// prefix (local time, as the agent writes it); nil when no line has it.
    static func time(of text: String, in log: String) -> Date? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains(text) }) else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        return formatter.date(from: String(line.prefix(23)))
    }

    /// Milliseconds from `start` to `end`, rounded, for a printed figure.
    static func milliseconds(from start: Date, to end: Date) -> Int { Int((end.timeIntervalSince(start) * 1000).rounded()) }
}
