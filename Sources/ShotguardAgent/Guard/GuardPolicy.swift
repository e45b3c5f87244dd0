// Guard's decisions as pure functions: what happens to a screenshot file or clipboard image.

/// How a candidate image relates to the event's screens.
enum Placement: Equatable {
    /// Found on a screen; `verified` when its pixels matched that screen (a cursor aside).
    case placed(verified: Bool)
    /// Not found on any screen the agent saw, with why.
    case unplaced(reason: String)
}

/// What guard does with one screenshot.
enum GuardAction: Equatable {
    /// No rule touches it: leave it byte-identical.
    case leave
    /// Rules hit it: replace it with the redacted image, in its own format.
    case rewrite
    /// It cannot be placed while a rule hit a window at the event: set the original aside and
    /// put the redacted fallback in its place.
    case quarantine
    /// Not a screenshot (a weak candidate not found on screen, or part of a bulk copy).
    case ignore
}

/// What guard did, for the report's `guard` object.
struct GuardOutcome: Equatable {
    var file: String?
    var quarantine: String?
    var clipboard: String?

    var isEmpty: Bool { file == nil && clipboard == nil }
}

enum GuardPolicy {
    /// The action for an image once it was examined.
    /// - Parameters:
    ///   - placement: where it was found, if anywhere.
    ///   - hitsInImage: how many rule rectangles fall inside the image once placed.
    ///   - isWeak: only an image in a watched folder, with no screenshot name.
    ///   - rulesHitAtEvent: whether any rule covered anything at the event (a window or a region).
    ///   - isBurst: it came with many other files at once (a bulk copy).
    static func action(for placement: Placement, hitsInImage: Int, isWeak: Bool, rulesHitAtEvent: Bool,
                       isBurst: Bool) -> GuardAction {
        switch placement {
        case .placed:
            return hitsInImage > 0 ? .rewrite : .leave
        case .unplaced:
            if isWeak || isBurst { return .ignore }
            // Fail closed: an image that cannot be placed may show what the rules cover.
            return rulesHitAtEvent ? .quarantine : .leave
        }
    }

    /// Whether guard may touch a file at all: the agent's own rewrites, files written before it
    /// started and files of other users never are.
    static func mayRewrite(modified: Double, agentStart: Double, ownedByUser: Bool, isOwnRewrite: Bool) -> Bool {
        ownedByUser && !isOwnRewrite && modified >= agentStart
    }
}
