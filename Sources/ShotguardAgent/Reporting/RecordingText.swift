// What the agent says of a recording or a share: its log's words, its --json line and its notification, made from the values alone.
import ShotguardBase
import ShotguardImaging
import ShotguardX11

enum RecordingText {
    /// How it reads the screen, for the log: `reads 1920x1080+0+0 again and again (ShmGetImage)`.
    static func how(_ info: RecordingInfo) -> String {
        switch info.path {
        case .reads(let request): "reads again and again (\(request)):"
        case .watch(.damage): "watches for changes (DamageCreate on what it reads):"
        case .watch(.redirect): "redirects another client's window (RedirectWindow) to read it:"
        case .watch(.namedPixmap): "holds another client's window's contents (NameWindowPixmap):"
        case .helper(let means): "reads the screen past the X server (\(means)):"
        }
    }

    /// `firefox is sharing your screen` / `ffmpeg is recording your screen`.
    static func headline(_ info: RecordingInfo) -> String {
        switch info.path {
        case .helper(let means): "\(info.program) reads your screen past the X server (\(means))"
        default: "\(info.program) is \(info.path.isShare ? "sharing" : "recording") your screen"
        }
    }

    /// The notification for a recording that started: its summary names the program and what
    /// was covered ("firefox is sharing your screen: 2 protected areas covered"), its body what
    /// that means; nil when there is nothing to say (no rules in force).
    static func notification(_ info: RecordingInfo, rulesInForce: Bool, shielded: Bool) -> (summary: String, body: String)? {
        guard rulesInForce else { return nil }
        let headline = headline(info)
        if info.trusted {
            return (headline, "Your rules trust it (trust program=…): nothing is covered for it")
        }
        guard shielded else {
            return (headline, "Protected windows are not covered: the agent runs with --no-shield")
        }
        if case .helper = info.path {
            return ("\(headline): \(areas(info.covers)) covered",
                    "No X11 program can see what it reads: every protected area stays covered while it runs")
        }
        guard info.covers > 0 else {
            return (headline, "No protected area is in what it reads: nothing on your screen is covered")
        }
        return ("\(headline): \(areas(info.covers)) covered", "They stay covered while it reads; the rest of your screen is as it was")
    }

    /// `1 protected area`, `2 protected areas`.
    static func areas(_ count: Int) -> String { "\(count) protected area\(count == 1 ? "" : "s")" }

    /// The `watch --json` line of a recording that started or stopped (the report schema's
    /// `recording` type).
    static func jsonLine(_ info: RecordingInfo, started: Bool) -> JSON {
        JSON.object([
            ("type", .string("recording")), ("schema", .number(Report.schema)), ("state", .string(started ? "started" : "stopped")),
            ("time", .string(Log.iso8601(started ? info.started.wall : info.lastRead.wall))), ("program", .string(info.program)),
            ("pid", info.pid.map { .number(Int($0)) } ?? .null), ("geometry", info.area.map { .string($0.description) } ?? .null),
            ("frames", .number(info.frames)), ("request", .string(info.path.name)), ("covers", .number(info.covers)),
            ("trusted", .bool(info.trusted)),
        ])
    }
}
