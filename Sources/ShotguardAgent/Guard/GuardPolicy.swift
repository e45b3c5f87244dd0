// Guard's decisions as pure functions: whether an image is a screenshot of this screen, and what guard does with it.

/// Whether an image is a screenshot of this screen, and why.
enum Judgment: Equatable, Sendable {
    case screenshot(because: String)
    case notScreenshot(because: String)

    var isScreenshot: Bool { if case .screenshot = self { true } else { false } }

    var reason: String {
        switch self {
        case .screenshot(let because), .notScreenshot(let because): return because
        }
    }
}

/// How an image relates to the event's screens.
enum PlacementFact: Equatable, Sendable {
    /// Its pixels are the screen's (a cursor, a caret, or small moving areas far from every
    /// rule aside).
    case matched
    /// It differs from the screen, but only where rules cover it.
    case differsUnderRules
    /// It could not be placed on any screen the agent saw.
    case unplaced
}

/// What guard does with one image.
enum GuardAction: Equatable, Sendable {
    /// Leave it exactly as it was: the file keeps its bytes, the clipboard every target its
    /// owner offered (served back byte for byte if guard had to take it over).
    case leave
    /// Replace it with the redacted image (the file in its own format; the clipboard's image
    /// targets).
    case redact
    /// A screenshot that cannot be redacted: set the original aside (quarantine) behind a
    /// placeholder that shows no screen content; on the clipboard, the placeholder is served.
    case setAside
}

/// What guard did, for the report's `guard` object.
struct GuardOutcome: Equatable, Sendable {
    var file: String?
    var quarantine: String?
    var clipboard: String?

    var isEmpty: Bool { file == nil && clipboard == nil }

    /// What guard did to a file or the clipboard, as the report says it.
    static let leftAsItWas: Set<String> = ["untouched", "unchanged"]

    /// Takes in what one examination or text pass did. What was done (rewritten, set aside) is
    /// never replaced by "left as it was": a second look at the same file (its name seen twice
    /// while it was written) finds it set aside already, in the agent's own quarantine.
    mutating func merge(file: String?, clipboard: String?, quarantine: String?) {
        if let file, self.file == nil || !Self.leftAsItWas.contains(file) || Self.leftAsItWas.contains(self.file ?? "") {
            self.file = file
        }
        if let clipboard, self.clipboard == nil || !Self.leftAsItWas.contains(clipboard)
            || Self.leftAsItWas.contains(self.clipboard ?? "") {
            self.clipboard = clipboard
        }
        if let quarantine { self.quarantine = quarantine }
    }
}

/// Everything the decision needs about one examined image.
struct PolicyFacts: Equatable, Sendable {
    var source: Candidate.Source
    var naming: Naming
    /// The candidate's own evidence with the event's (tool window, shield key) added.
    var evidence: Evidence
    /// Whether capture sensing (RECORD) runs: then the agent knows which programs read the screen.
    var sensing: Bool
    var placement: PlacementFact
    /// Rule rectangles inside the image once placed.
    var hitsInImage: Int
    /// Whether any rule covered anything on the screen at the event.
    var rulesHitAtEvent: Bool
}

enum GuardPolicy {
    /// Know, don't guess: an image is a screenshot of this screen when it is placed on a
    /// snapshot and either backed by capture evidence, or named as a screenshot, or — on the
    /// clipboard, or where capture sensing cannot answer — its pixels are the screen's. An image that cannot be
    /// placed is a screenshot only with strong evidence (the reading process itself, a tool
    /// window, the shield key, a screenshot program), or by its name together with a screen
    /// read shortly before it — or by its name alone where sensing cannot answer.
    static func judge(_ facts: PolicyFacts) -> Judgment {
        let named = facts.source == .file && facts.naming == .strong
        switch facts.placement {
        case .matched, .differsUnderRules:
            if !facts.evidence.isEmpty { return .screenshot(because: "capture evidence: \(facts.evidence.phrases.joined(separator: ", "))") }
            if named { return .screenshot(because: "named as a screenshot, and its pixels are the screen's") }
            // A clipboard image whose pixels are the screen's is one (a screenshot file copied
            // later, by hand); what damage is possible is a paste, never a file.
            if facts.placement == .matched, !facts.sensing || facts.source == .clipboard {
                return .screenshot(because: "its pixels are the screen's")
            }
            if !facts.sensing { return .notScreenshot(because: "it differs from the screen and nothing says it is a screenshot") }
            return .notScreenshot(because: "no program read the screen for it")
        case .unplaced:
            // Only evidence that the image holds protected pixels sets aside what cannot be
            // placed: a read that held none (a colour picker's, a magnifier's far from every
            // rule) or one merely close in time is no reason to touch a photo.
            if hasStrongEvidence(facts.evidence) {
                return .screenshot(because: "capture evidence: \(facts.evidence.phrases.joined(separator: ", "))")
            }
            if named, !facts.sensing {
                return .screenshot(because: "named as a screenshot (capture sensing is not available to tell)")
            }
            if facts.evidence.screenRead?.link == .recorder {
                return .notScreenshot(because: "not found on the screen; the recording program that wrote it writes more than frames")
            }
            if facts.evidence.screenRead?.link == .inferred {
                return .notScreenshot(because: "not found on the screen; the program that wrote it was only taken for the reader")
            }
            return .notScreenshot(because: facts.sensing ? "not found on the screen, and no program read the screen for it"
                : "not found on the screen")
        }
    }

    /// Evidence that holds without placement: a read that held protected pixels, tied to the
    /// image by the reading process itself, the file it (or a process it started or piped to)
    /// wrote; the image's bytes or pixels being a screenshot's guard took in (a copy of its
    /// original); a tool window, the shield's key, a screenshot program. A read by a program
    /// merely in the same process group or with the same parent could be an unrelated copy; a
    /// read of nothing protected is no reason to set anything aside.
    static func hasStrongEvidence(_ evidence: Evidence) -> Bool {
        if evidence.toolWindow != nil || evidence.shieldKey || evidence.screenshotProgram != nil || evidence.copyOf != nil {
            return true
        }
        guard let (read, link) = evidence.screenRead, read.holdsProtectedPixels else { return false }
        return [.sameProcess, .writer, .childOfReader, .channelOfReader, .copy].contains(link)
    }

    /// What guard does with an examined image.
    static func action(_ facts: PolicyFacts) -> GuardAction {
        guard judge(facts).isScreenshot else { return .leave }
        switch facts.placement {
        case .matched, .differsUnderRules:
            return facts.hitsInImage > 0 ? .redact : .leave
        case .unplaced:
            // Fail closed: an image that cannot be placed may show what the rules cover, or a
            // protected window its read took whole from the window's own pixels (hidden under
            // another, where no rule hits the screen).
            return facts.rulesHitAtEvent || facts.evidence.screenRead?.read.ofProtectedWindow == true ? .setAside : .leave
        }
    }

    /// Whether guard takes CLIPBOARD the moment it has read a new image, before placing it:
    /// only with capture evidence and while rules cover something, so that a paste waits for
    /// the redacted image instead of getting the original. Without evidence the owner keeps
    /// the clipboard until the image is found to be the screen's.
    static func takesOverAtOnce(evidence: Evidence, rulesHitNow: Bool) -> Bool {
        rulesHitNow && !evidence.isEmpty
    }

    /// Whether guard may touch a file at all: files written before the agent started, files of
    /// other users, and files restored from quarantine never are.
    static func mayRewrite(modified: Double, agentStart: Double, ownedByUser: Bool, isRestored: Bool) -> Bool {
        ownedByUser && !isRestored && modified >= agentStart
    }
}
