// A line for the log with its level: parts hand these back, and the agent writes them as they are.
import ShotguardBase

/// What a part wants said, and how loudly: the level is chosen where the line is made, so no
/// one reading the lines later has to guess it from their words.
struct LogLine: Equatable, Sendable {
    enum Level: Equatable, Sendable { case verbose, info, warning, error }

    let level: Level
    let text: String

    static func verbose(_ text: String) -> LogLine { LogLine(level: .verbose, text: text) }
    static func info(_ text: String) -> LogLine { LogLine(level: .info, text: text) }
    static func warning(_ text: String) -> LogLine { LogLine(level: .warning, text: text) }
    static func error(_ text: String) -> LogLine { LogLine(level: .error, text: text) }
}

extension Log {
    /// Writes each line at its level.
    func write(_ lines: [LogLine]) {
        for line in lines {
            switch line.level {
            case .verbose: verbose(line.text)
            case .info: info(line.text)
            case .warning: warning(line.text)
            case .error: error(line.text)
            }
        }
    }
}
