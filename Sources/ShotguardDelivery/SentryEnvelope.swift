// A report as one Sentry envelope: an event, the redacted image and report.json as attachments,
// and the user's words as user feedback.
import ShotguardBase

/// The envelope format (newline-separated JSON headers and payloads; each item's header gives
/// its payload's length in bytes, so binary payloads need no escaping).
public enum SentryEnvelope {
    /// The body to POST to `dsn.envelopeURL`. `eventID` is 32 hex digits, the same at every
    /// attempt, so a service that got an earlier try drops the repeat.
    public static func encode(eventID: String, dsn: SentryDSN, sentAt: Double, summary: ReportSummary, reportJSON: [UInt8],
                              image: [UInt8]?, client: (name: String, version: String)) -> [UInt8] {
        var body: [UInt8] = []
        let header: JSON = .object([("event_id", .string(eventID)), ("dsn", .string(dsn.text)),
                                    ("sent_at", .string(iso8601(sentAt))),
                                    ("sdk", .object([("name", .string(client.name)), ("version", .string(client.version))]))])
        body += Array(header.text.utf8) + [0x0A]
        let event = Array(eventJSON(eventID: eventID, summary: summary, client: client).text.utf8)
        append(&body, header: [("type", .string("event")), ("content_type", .string("application/json"))], payload: event)
        if let image {
            append(&body, header: [("type", .string("attachment")), ("filename", .string("screenshot.png")),
                                   ("content_type", .string("image/png")), ("attachment_type", .string("event.attachment"))],
                   payload: image)
        }
        append(&body, header: [("type", .string("attachment")), ("filename", .string("report.json")),
                               ("content_type", .string("application/json"))], payload: reportJSON)
        if let description = summary.description, !description.isEmpty {
            let feedback: JSON = .object([("event_id", .string(eventID)), ("name", .string(client.name)), ("email", .string("")),
                                          ("comments", .string(description))])
            append(&body, header: [("type", .string("user_report"))], payload: Array(feedback.text.utf8))
        }
        return body
    }

    private static func append(_ body: inout [UInt8], header: [(String, JSON)], payload: [UInt8]) {
        body += Array(JSON.object(header + [("length", .number(payload.count))]).text.utf8) + [0x0A]
        body += payload
        body.append(0x0A)
    }

    /// The event: the report's one-line message, tags to search by, and the report's context.
    static func eventJSON(eventID: String, summary: ReportSummary, client: (name: String, version: String)) -> JSON {
        var tags: [(String, JSON)] = [("shotguard.report", .string(summary.id))]
        if let source = summary.source { tags.append(("shotguard.source", .string(source))) }
        if let windowClass = summary.windowClass { tags.append(("window.class", .string(windowClass))) }
        if let program = summary.capturedBy { tags.append(("captured_by", .string(program))) }
        var screenshot: [(String, JSON)] = [("type", .string("default")), ("report", .string(summary.id)),
                                            ("redactions", .number(summary.redactions))]
        if let windowClass = summary.windowClass { screenshot.append(("window_class", .string(windowClass))) }
        if let instance = summary.windowInstance { screenshot.append(("window_instance", .string(instance))) }
        // A protected window's title is null in the report: it stays out of the event too.
        if let title = summary.windowTitle { screenshot.append(("window_title", .string(title))) }
        if let program = summary.capturedBy { screenshot.append(("captured_by", .string(program))) }
        if let screen = summary.screen { screenshot.append(("screen", .string(screen))) }
        if !summary.monitors.isEmpty { screenshot.append(("monitors", .array(summary.monitors.map(JSON.string)))) }
        var contexts: [(String, JSON)] = [("screenshot", .object(screenshot))]
        if summary.applicationName != nil || summary.applicationVersion != nil {
            var app: [(String, JSON)] = [("type", .string("app"))]
            if let name = summary.applicationName { app.append(("app_name", .string(name))) }
            if let version = summary.applicationVersion { app.append(("app_version", .string(version))) }
            if let entry = summary.desktopEntry { app.append(("app_identifier", .string(entry))) }
            contexts.append(("app", .object(app)))
        }
        var members: [(String, JSON)] = [
            ("event_id", .string(eventID)), ("platform", .string("other")), ("level", .string("info")),
            ("logger", .string(client.name)), ("message", .object([("formatted", .string(summary.message))])),
            ("release", .string("\(client.name)@\(summary.version ?? client.version)")),
            ("tags", .object(tags)), ("contexts", .object(contexts)),
            ("sdk", .object([("name", .string(client.name)), ("version", .string(client.version))])),
        ]
        if let time = summary.time { members.append(("timestamp", .string(time))) }
        if let host = summary.host { members.append(("server_name", .string(host))) }
        return .object(members)
    }

    /// `2026-12-01T10:10:10.123Z`.
    static func iso8601(_ wall: Double) -> String {
        let time = CalendarTime(wall, utc: true)
        return "\(time.year)-\(CalendarTime.pad(time.month))-\(CalendarTime.pad(time.day))T\(CalendarTime.pad(time.hour)):"
            + "\(CalendarTime.pad(time.minute)):\(CalendarTime.pad(time.second)).\(CalendarTime.pad(time.millisecond, 3))Z"
    }
}
