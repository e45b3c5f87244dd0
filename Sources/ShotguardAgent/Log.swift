// Timestamped log lines on standard error; --verbose adds the detail lines.
import Glibc

public struct Log: Sendable {
    public var isVerbose: Bool

    public init(verbose: Bool) { isVerbose = verbose }

    public func info(_ message: String) { write("", message) }
    public func warning(_ message: String) { write("warning: ", message) }
    public func error(_ message: String) { write("error: ", message) }
    public func verbose(_ message: String) { if isVerbose { write("", message) } }

    private func write(_ level: String, _ message: String) {
        let line = "\(Self.timestamp()) shotguard: \(level)\(message)\n"
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// Local time as `2026-11-29 14:07:03.120`.
    static func timestamp() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var parts = tm()
        var seconds = time.tv_sec
        localtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = Int(time.tv_nsec / 1_000_000)
        let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)"
    }

    /// UTC time in ISO 8601 with milliseconds, for reports: `2026-11-29T14:07:03.120Z`.
    public static func iso8601(_ seconds: Double) -> String {
        var whole = time_t(seconds)
        var parts = tm()
        gmtime_r(&whole, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let millis = Int32((seconds - Double(whole)) * 1000)
        return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(millis, 3))Z"
    }
}
