// What the agent does with a file or clipboard image the moment it arrives, before any examination: decisions as values.

/// What becomes of a file event in a burst.
enum FileArrivalDecision: Equatable, Sendable {
    /// Taken in: classified, held when it may be a screenshot, examined in its turn.
    case takeIn
    /// Left without being opened: in a burst, an image nothing ties to a capture.
    case leaveUnopened
}

/// What guard does with a clipboard image the moment it has read it.
enum ClipboardArrivalDecision: Equatable, Sendable {
    /// Examined in its turn; `takeOverNow`: guard takes the clipboard at once, so that a paste
    /// waits for the redacted image (only with capture evidence while rules cover something).
    case examine(takeOverNow: Bool)
    /// The image guard itself served: nothing to do.
    case ignoreOwn
    /// Its owner keeps putting back an image guard replaced: the clipboard offers nothing.
    case withhold
}

/// The facts of a file arrival the decision needs.
struct FileArrivalFacts: Equatable, Sendable {
    /// More file events came at once than `Agent.burstArrivals`.
    var burst: Bool
    /// Capture sensing runs and protection is not paused: the agent knows who read the screen.
    var sensingAnswers: Bool
    var stronglyNamed: Bool
    /// A holder of protected pixels wrote it.
    var writtenByHolder: Bool
    /// A program read the screen within `ReadHistory.horizon`.
    var anyRecentRead: Bool
    /// The open capture event holds other evidence (a tool window, the shield key).
    var eventHasEvidence: Bool
}

/// The facts of a clipboard arrival the decision needs.
struct ClipboardArrivalFacts: Equatable, Sendable {
    var arrival: ClipboardArrival
    /// A clipboard manager's copy of what the owner before it offered: a new copy, never a retake.
    var handedOver: Bool
    var evidence: Evidence
    var rulesHitNow: Bool
    /// Its bytes are an image guard served.
    var isGuardsOwn: Bool
}

enum ArrivalPolicy {
    /// Only a burst (the agent behind a copy of many files) takes the shortcut: with capture
    /// sensing, an image without a screenshot's name, written by no holder, while no program
    /// read the screen in the half minute before and no open event holds other evidence, is
    /// left without being opened (the examination would leave it too). Ten thousand photos
    /// copied at once then cost a name check each.
    static func decide(_ facts: FileArrivalFacts) -> FileArrivalDecision {
        guard facts.burst, facts.sensingAnswers, !facts.stronglyNamed else { return .takeIn }
        return !facts.writtenByHolder && !facts.anyRecentRead && !facts.eventHasEvidence ? .leaveUnopened : .takeIn
    }

    /// A clipboard image: guard's own is ignored; one its owner put back too often is withheld;
    /// any other is examined, the clipboard taken at once only with evidence while rules hit.
    static func decide(_ facts: ClipboardArrivalFacts) -> ClipboardArrivalDecision {
        if facts.isGuardsOwn { return .ignoreOwn }
        if !facts.handedOver, facts.arrival == .overLimit { return .withhold }
        return .examine(takeOverNow: GuardPolicy.takesOverAtOnce(evidence: facts.evidence, rulesHitNow: facts.rulesHitNow))
    }
}
