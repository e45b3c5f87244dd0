// What a reporter needs to know of a report, read back from its report.json (the queue's copy).
import ShotguardBase

/// The fields of a report that a Sentry event shows as its message, tags and contexts. Read from
/// the JSON the agent wrote: a field that is missing or of another type is left out, never guessed.
public struct ReportSummary: Sendable, Equatable {
    public var id = ""
    /// ISO 8601, as the report says it.
    public var time: String?
    public var source: String?
    public var redactions = 0
    public var host: String?
    public var version: String?
    public var windowClass: String?
    public var windowInstance: String?
    /// Null in the report when a rule protects the active window: then it is not known here either.
    public var windowTitle: String?
    public var applicationName: String?
    public var applicationVersion: String?
    public var desktopEntry: String?
    public var capturedBy: String?
    /// `NAME WxH+X+Y` for each monitor.
    public var monitors: [String] = []
    public var screen: String?
    public var description: String?

    public init() {}

    /// The summary of `json` (a report.json), or nil when it is not a JSON object with an id.
    public init?(json: [UInt8]) {
        guard let fields = JSONValue.parseObject(json), let id = fields["id"]?.string else { return nil }
        self.id = id
        time = fields["time"]?.string
        source = fields["image"]?["source"]?.string
        redactions = fields["redactions"]?.array?.count ?? 0
        host = fields["host"]?.string
        version = fields["shotguard"]?.string
        windowClass = fields["activeWindow"]?["class"]?.string
        windowInstance = fields["activeWindow"]?["instance"]?.string
        windowTitle = fields["activeWindow"]?["title"]?.string
        applicationName = fields["application"]?["name"]?.string
        applicationVersion = fields["application"]?["version"]?.string
        desktopEntry = fields["application"]?["desktopEntry"]?.string
        capturedBy = fields["capturedBy"]?["program"]?.string
        monitors = (fields["monitors"]?.array ?? []).prefix(16).compactMap { monitor in
            guard let name = monitor["name"]?.string, let geometry = monitor["geometry"]?.string else { return nil }
            return "\(name) \(geometry)"
        }
        if let width = fields["screen"]?["width"]?.number, let height = fields["screen"]?["height"]?.number {
            screen = "\(Int(width))x\(Int(height))"
        }
        description = fields["description"]?.string
    }

    /// The event's one-line message: the user's words when there are some.
    public var message: String {
        if let description, !description.isEmpty { return description }
        let areas = "\(redactions) area\(redactions == 1 ? "" : "s") redacted"
        let what = windowClass.map { " of \($0)" } ?? ""
        return "Screenshot\(what) (\(areas))"
    }
}
