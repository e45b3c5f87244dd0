// What the capture tracker did with a signal or an examined image, as values: the agent makes the log line and the event of each.
import ShotguardBase
import ShotguardImaging

/// Why the tracker did not follow an image.
enum IgnoreReason: String, Equatable, Sendable {
    /// A file guard rewrote itself.
    case ownRewrite = "own-rewrite"
    /// An image guard served on the clipboard itself.
    case ownImage = "own-image"
    /// The same file, already taken in.
    case alreadySeen = "already-seen"
    /// The screen could not be grabbed, so no event could open for it.
    case noScreen = "no-screen"
    /// Protection is paused: the agent hands no signal to the tracker (said by the agent).
    case paused
}

extension CaptureSignal {
    /// The name of the image the signal brings, if it brings one.
    var imageName: String? {
        guard case .image(let candidate) = self else { return nil }
        return candidate.name
    }
}

/// One thing the tracker did, for the log and the event stream. The tracker decides; the agent
/// only writes these out (`line`, `event`) and never reads them back.
enum TrackerNote: Equatable, Sendable {
    /// A signal opened capture event `event`, its screen grabbed with `windows` windows.
    case opened(event: String, windows: Int, fallback: Rect)
    /// A fresher screen joined the open event: `screens` of `CaptureEvent.maximumSnapshots`.
    case freshScreen(event: String, screens: Int)
    /// An image became a candidate to examine.
    case taken(name: String, naming: Naming)
    case ignored(name: String, why: IgnoreReason)
    /// A file left as it was for want of a read is taken again: `program`'s read, learnt after,
    /// ties it to a capture.
    case judgedAgain(name: String, program: String)
    /// Its pixels are those of a screenshot handled just now: no second report.
    case repeated(name: String)
    /// Not a screenshot, or nothing to do with it: left exactly as it was.
    case left(name: String, reason: String)
    /// Still not complete after `CaptureTracker.maximumLooks` looks.
    case gaveUp(name: String)
    case lookingAgain(name: String, delay: Double)

    /// The verbose log's line.
    var line: String {
        switch self {
        case .opened(let event, let windows, let fallback):
            return "capture event \(event): \(windows) windows, fallback \(fallback)"
        case .freshScreen(let event, let screens):
            return "capture event \(event): fresh screen \(screens) of \(CaptureEvent.maximumSnapshots)"
        case .taken(let name, let naming):
            return naming == .weak ? "image \(name) (counts only if something ties it to a capture)" : "screenshot \(name)"
        case .ignored(let name, let why):
            let reason: String
            switch why {
            case .ownRewrite: reason = "guard's own rewrite"
            case .ownImage: reason = "guard's own image"
            case .alreadySeen: reason = "already seen"
            case .noScreen: reason = "the screen could not be captured"
            case .paused: reason = "protection is paused"
            }
            return "ignored \(name): \(reason)"
        case .judgedAgain(let name, let program):
            return "\(name) is examined again: \(program) read the screen for it, learnt after it was left as it was"
        case .repeated(let name):
            return "\(name) shows a screenshot already handled: no second report"
        case .left(let name, let reason):
            return "left \(name) as it is: \(reason)"
        case .gaveUp(let name):
            return "gave up waiting for \(name) to be complete"
        case .lookingAgain(let name, let delay):
            return "\(name) is not complete yet: looking again in \(Int(delay * 1000)) ms"
        }
    }

    /// The note on the event stream (see docs/agent.md); nil for what the `examined` event says.
    var event: (name: String, fields: [(String, JSON)])? {
        switch self {
        case .opened(let event, let windows, let fallback):
            return ("capture-event", [("id", .string(event)), ("windows", .number(windows)), ("fallback", .string(fallback.description))])
        case .freshScreen(let event, let screens):
            return ("fresh-screen", [("id", .string(event)), ("screens", .number(screens))])
        case .taken(let name, let naming):
            return ("taken", [("name", .string(name)), ("naming", .string(naming.rawValue))])
        case .ignored(let name, let why):
            return ("ignored", [("name", .string(name)), ("why", .string(why.rawValue))])
        case .judgedAgain(let name, let program):
            return ("judged-again", [("name", .string(name)), ("program", .string(program))])
        case .repeated(let name):
            return ("repeat", [("name", .string(name))])
        case .gaveUp(let name):
            return ("gave-up", [("name", .string(name))])
        case .left, .lookingAgain:
            return nil
        }
    }
}
