// The report of one screenshot (schema 4, see shotguard(1)) and its JSON form.
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

/// What the agent hands to reporters: the redacted image and what happened.
struct Report {
    enum Source: String { case file, clipboard, fallback, none }

    /// 2 added the `guard` object; 3 the `shield` object and the `shield-key` signal; 4 the
    /// `type` field, the `screen-read` signal (program, pid, geometry), the `evidence` list and
    /// the shield's `readAfterMs`; 5 `capturedBy`, `application` and `description`.
    static let schema = 5

    let id: String
    let time: Double
    var signals: [SignalRecord] = []
    var source: Source = .none
    /// Where the real image came from (a file path), when it did.
    var original: String?
    var image: PixelBuffer?
    var alignment: Alignment?
    var redactions: [RegionHit] = []
    var activeWindow: WindowInfo?
    /// Whether a rule redacted the active window, so its title must not be written down.
    var activeWindowRedacted = false
    var screen: (width: Int, height: Int) = (0, 0)
    /// The RandR monitors at the event.
    var monitors: [MonitorInfo] = []
    var notes: [String] = []
    var guardOutcome = GuardOutcome()
    /// Whether the shield was up for this screenshot.
    var shield: ShieldRecord?
    /// Why the placed image was taken for a screenshot of this screen, in phrases.
    var evidence: [String] = []
    /// What the text rules covered: kind, rule line, box (never the text).
    var textCovers: [(kind: String, line: Int, rect: Rect)] = []
    /// The program that took the screenshot: the screen's reader (with its pid), else the tool
    /// whose window was seen.
    var capturedBy: (program: String, pid: Int32?)?
    /// The active window's application, where its desktop entry names it.
    var application: ApplicationInfo?
    /// The user's words about it (added when they ask to send it: `--report-ask`).
    var description: String?
    /// Whether rules were in force for it (none while protection is paused): only then was its
    /// image checked against them, and only then may the image leave the machine.
    var rulesApplied = false

    func json(imagePath: String?, host: String, version: String) -> JSON {
        var imageFields: [(String, JSON)] = [("source", .string(source.rawValue)),
                                             ("path", imagePath.map(JSON.string) ?? .null)]
        if let original { imageFields.append(("original", .string(original))) }
        imageFields += [("width", .number(image?.width ?? 0)), ("height", .number(image?.height ?? 0))]
        let alignmentJSON: JSON = alignment.map { alignment -> JSON in
            .object([("method", .string(alignment.method.rawValue)), ("geometry", .string(alignment.rect.description)),
                     ("window", alignment.windowID.map { .string("0x" + String($0, radix: 16)) } ?? .null),
                     ("monitor", monitor(holdingMostOf: alignment.rect).map { .string($0.name) } ?? .null)])
        } ?? .null
        let redactionsJSON: JSON = .array(redactions.map { hit -> JSON in
            .object([("line", .number(hit.line)), ("geometry", .string(hit.rect.description)),
                     ("x", .number(hit.rect.x)), ("y", .number(hit.rect.y)), ("width", .number(hit.rect.width)),
                     ("height", .number(hit.rect.height)), ("fill", .string(hit.fill.description))])
        })
        let activeJSON: JSON = activeWindow.map { window -> JSON in
            .object([("id", .string("0x" + String(window.id, radix: 16))), ("class", .string(window.className)),
                     ("instance", .string(window.instance)),
                     ("title", activeWindowRedacted ? .null : .string(window.title)),
                     ("titleWithheld", .bool(activeWindowRedacted)), ("geometry", .string(window.frame.description))])
        } ?? .null
        let monitorsJSON: JSON = .array(monitors.map { monitor -> JSON in
            .object([("name", .string(monitor.name)), ("geometry", .string(monitor.frame.description)),
                     ("primary", .bool(monitor.isPrimary))])
        })
        let guardMembers: [(String, JSON)] = [guardOutcome.file.map { ("file", JSON.string($0)) },
                                              guardOutcome.quarantine.map { ("quarantine", JSON.string($0)) },
                                              guardOutcome.clipboard.map { ("clipboard", JSON.string($0)) }].compactMap { $0 }
        let shieldJSON: JSON = shield.map { shield -> JSON in
            .object([("keyTime", .string(Log.iso8601(shield.keyTime))),
                     ("mappedAfterMs", .decimal(shield.mappedAfterMs, digits: 3)), ("covers", .number(shield.covers)),
                     ("readAfterMs", shield.readAfterMs.map { .decimal($0, digits: 3) } ?? .null)])
        } ?? .null
        var members: [(String, JSON)] = [
            ("type", .string("screenshot")),
            ("schema", .number(Self.schema)),
            ("id", .string(id)),
            ("time", .string(Log.iso8601(time))),
            ("signals", .array(signals.map(Self.json(signal:)))),
            ("image", .object(imageFields)),
            ("alignment", alignmentJSON),
            ("evidence", .array(evidence.map(JSON.string))),
            ("redactions", redactionsJSON),
        ]
        members += [
            ("text", textJSON),
            ("activeWindow", activeJSON),
            ("screen", .object([("width", .number(screen.width)), ("height", .number(screen.height))])),
            ("monitors", monitorsJSON),
            ("guard", guardOutcome.isEmpty ? .null : .object(guardMembers)),
            ("shield", shieldJSON),
            ("capturedBy", capturedBy.map { .object([("program", .string($0.program)),
                                                     ("pid", $0.pid.map { .number(Int($0)) } ?? .null)]) } ?? .null),
            ("application", application.map { .object([("desktopEntry", .string($0.desktopEntry)),
                                                       ("name", $0.name.map(JSON.string) ?? .null),
                                                       ("version", $0.version.map(JSON.string) ?? .null)]) } ?? .null),
            ("description", description.map(JSON.string) ?? .null),
            ("host", .string(host)),
            ("shotguard", .string(version)),
            ("note", notes.isEmpty ? .null : .string(notes.joined(separator: "; "))),
        ]
        return .object(members)
    }

    /// What the text rules covered, as the report lists it.
    private var textJSON: JSON {
        .array(textCovers.map { cover -> JSON in
            .object([("kind", .string(cover.kind)), ("line", .number(cover.line)), ("geometry", .string(cover.rect.description))])
        })
    }

    /// A signal as the report lists it; a `screen-read` adds the program, its pid, the request
    /// and the geometry read (null where the drawable could not be traced to the screen).
    static func json(signal: SignalRecord) -> JSON {
        var fields: [(String, JSON)] = [("kind", .string(signal.kind.rawValue)), ("time", .string(Log.iso8601(signal.time))),
                                        ("detail", .string(signal.detail))]
        if signal.kind == .screenRead, let read = signal.read {
            fields += [("program", .string(read.program)), ("pid", read.pid.map { .number(Int($0)) } ?? .null),
                       ("request", .string(read.request)), ("geometry", read.area.map { .string($0.description) } ?? .null)]
        }
        return .object(fields)
    }

    /// The monitor that shows most of `rect` (where the image came from), if any.
    private func monitor(holdingMostOf rect: Rect) -> MonitorInfo? {
        ScreenContext(width: screen.width, height: screen.height, windows: [], monitors: monitors).monitor(holdingMostOf: rect)
    }
}
