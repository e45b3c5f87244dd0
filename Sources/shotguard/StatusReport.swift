// How `status` shows the agent's state: lines for a person, one JSON object for a script.
import ShotguardAgent
import ShotguardBase
import ShotguardBus
import ShotguardImaging

enum StatusReport {
    static func lines(_ answer: StatusAnswer) -> [String] {
        switch answer {
        case .noAgent(let why): return ["off: " + printable(why)]
        case .failed(let why): return ["unknown: the agent could not be asked: " + printable(why)]
        case .agent(let status): return lines(status)
        }
    }

    private static func lines(_ status: AgentStatus) -> [String] {
        var lines: [String] = []
        let display = status.display.isEmpty ? "" : " display \(printable(status.display))"
        switch status.protection {
        case .protecting:
            lines.append("protecting\(display)")
        case .paused(let until?):
            lines.append("paused until \(clock(until)) (\(remaining(until))); 'shotguard resume' ends it sooner")
        case .paused(nil):
            lines.append("paused until 'shotguard resume'")
        case .off(let why):
            lines.append("off: " + printable(why))
        }
        let kinds = status.rules.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.value) \(printable($0.key))" }
        lines.append("rules: \(status.ruleCount)" + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))"))
        lines.append("sources: " + (status.sources.isEmpty ? "none" : status.sources.map(printable).joined(separator: ", ")))
        lines.append("screen reads: " + (status.recordAvailable ? "seen as they happen (RECORD)"
            : "not seen (the X server has no RECORD)"))
        if let report = status.lastReport {
            let outcome = report.outcome.isEmpty ? "" : ", \(printable(report.outcome))"
            lines.append("last report: \(printable(report.id)) at \(clock(report.time))\(outcome)")
        } else {
            lines.append("last report: none yet")
        }
        for recording in status.recordings {
            lines.append("recording: " + recordingLine(recording))
        }
        if let queue = status.queue {
            var parts = ["\(queue.waiting) waiting"]
            if queue.held > 0 { parts.append("\(queue.held) held for your word") }
            if queue.refused > 0 { parts.append("\(queue.refused) refused") }
            if queue.dropped > 0 { parts.append("\(queue.dropped) dropped (the queue was full)") }
            lines.append("report queue: " + parts.joined(separator: ", "))
        }
        if !status.version.isEmpty { lines.append("agent: shotguard \(printable(status.version))") }
        return lines
    }

    /// `firefox (pid 4242) since 14:05, CopyArea of 1920x1080+0+0: 2 protected areas covered`.
    static func recordingLine(_ recording: AgentStatus.Recording) -> String {
        let pid = recording.pid.map { " (pid \($0))" } ?? ""
        let what = recording.geometry.map { " of \(printable($0))" } ?? ""
        let covered = recording.trusted ? "trusted by the rules, nothing covered"
            : "\(recording.covers) protected area\(recording.covers == 1 ? "" : "s") covered"
        return "\(printable(recording.program))\(pid) since \(clock(recording.since)), \(printable(recording.means))\(what): \(covered)"
    }

    static func json(_ answer: StatusAnswer) -> JSON {
        switch answer {
        case .noAgent(let why):
            return .object([("state", .string("off")), ("agent", .bool(false)), ("why", .string(why))])
        case .failed(let why):
            return .object([("state", .string("unknown")), ("agent", .bool(false)), ("why", .string(why))])
        case .agent(let status):
            return json(status)
        }
    }

    private static func json(_ status: AgentStatus) -> JSON {
        var state = "protecting"
        var why = JSON.null
        var until: Double?
        switch status.protection {
        case .protecting: break
        case .paused(let end): state = "paused"; until = end
        case .off(let reason): state = "off"; why = .string(reason)
        }
        let report: JSON = status.lastReport.map { report in
            .object([("id", .string(report.id)), ("time", .number(Int(report.time))),
                     ("iso8601", .string(Log.iso8601(report.time))), ("outcome", .string(report.outcome))])
        } ?? .null
        return .object([
            ("state", .string(state)),
            ("agent", .bool(true)),
            ("why", why),
            ("pausedUntil", until.map { .number(Int($0)) } ?? .null),
            ("pausedUntilIso8601", until.map { .string(Log.iso8601($0)) } ?? .null),
            ("display", .string(status.display)),
            ("version", .string(status.version)),
            ("rules", .object(status.rules.sorted { $0.key < $1.key }.map { ($0.key, .number($0.value)) })),
            ("sources", .array(status.sources.map { .string($0) })),
            ("recordAvailable", .bool(status.recordAvailable)),
            ("lastReport", report),
            ("recordings", .array(status.recordings.map { recording in
                .object([("program", .string(recording.program)), ("pid", recording.pid.map { .number(Int($0)) } ?? .null),
                         ("request", .string(recording.means)), ("geometry", recording.geometry.map { .string($0) } ?? .null),
                         ("since", .number(Int(recording.since))), ("sinceIso8601", .string(Log.iso8601(recording.since))),
                         ("covers", .number(recording.covers)), ("trusted", .bool(recording.trusted))])
            })),
            ("reportQueue", status.queue.map { queue in
                .object([("waiting", .number(queue.waiting)), ("held", .number(queue.held)), ("refused", .number(queue.refused)),
                         ("dropped", .number(queue.dropped))])
            } ?? .null),
        ])
    }

    /// `seconds` (since the epoch) as local HH:MM, with the date when it is not today.
    static func clock(_ seconds: Double) -> String {
        let time = CalendarTime(seconds)
        let today = CalendarTime()
        let pad = CalendarTime.pad
        let hour = "\(pad(time.hour, 2)):\(pad(time.minute, 2))"
        if (time.year, time.month, time.day) == (today.year, today.month, today.day) { return hour }
        return "\(time.year)-\(pad(time.month, 2))-\(pad(time.day, 2)) \(hour)"
    }

    /// How long until `seconds` (since the epoch): "9 minutes from now".
    static func remaining(_ seconds: Double) -> String {
        let left = seconds - now()
        return left <= 0 ? "ending now" : PauseDuration.describe(left) + " from now"
    }

    /// Text from the bus, for a terminal: escaped, as every other line shotguard prints.
    static func printable(_ text: String) -> String { text.escapingControlCharacters() }
}
