// Timestamped log lines on standard error; --verbose adds the detail lines.
import Glibc
import ShotguardBase
import ShotguardImaging

public struct Log: Sendable {
    public var isVerbose: Bool
    /// The log's typed twin for tests (`SHOTGUARD_EVENTS`, debug builds): what was decided.
    let events: EventStream

    public init(verbose: Bool) {
        isVerbose = verbose
        events = EventStream()
    }

    public func info(_ message: String) { write("", message) }
    /// A warning or an error is also said on the event stream (`problem`, by level): a test that
    /// expects none counts these instead of reading the log's words.
    public func warning(_ message: String) {
        write("warning: ", message)
        events.say("problem", [("level", .string("warning"))])
    }

    public func error(_ message: String) {
        write("error: ", message)
        events.say("problem", [("level", .string("error"))])
    }
    /// The message is built only when it is written: verbose lines are logged at event time.
    public func verbose(_ message: @autoclosure () -> String) { if isVerbose { write("", message()) } }

    /// One line per message: titles and file names in it come from other programs, so its
    /// control characters (a newline, ESC, BEL) are escaped before it reaches a terminal. A
    /// short write is finished, never cut; a log that cannot be written has nowhere to say so.
    private func write(_ level: String, _ message: String) {
        // Standard error closed or full: there is nowhere left to say so.
        try? FileDescriptor.standardError.writeAll("\(Self.timestamp()) shotguard: \(level)\(message.escapingControlCharacters())\n")
    }

    /// Local time as `2026-11-29 14:07:03.120`.
    static func timestamp() -> String {
        let t = CalendarTime()
        let pad = CalendarTime.pad
        return "\(t.year)-\(pad(t.month, 2))-\(pad(t.day, 2)) \(pad(t.hour, 2)):\(pad(t.minute, 2)):\(pad(t.second, 2))."
            + pad(t.millisecond, 3)
    }

    /// UTC time in ISO 8601 with milliseconds, for reports: `2026-11-29T14:07:03.120Z`.
    public static func iso8601(_ seconds: Double) -> String {
        let t = CalendarTime(seconds, utc: true)
        let pad = CalendarTime.pad
        return "\(t.year)-\(pad(t.month, 2))-\(pad(t.day, 2))T\(pad(t.hour, 2)):\(pad(t.minute, 2)):\(pad(t.second, 2))."
            + pad(t.millisecond, 3) + "Z"
    }
}
