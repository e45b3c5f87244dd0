// The examiner: an image, the event's screens, the rules and the evidence in; a placement and guard's action out.
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

/// Everything one examination needs, as values.
struct ExaminationInput {
    var image: PixelBuffer
    var tolerance: MatchTolerance
    var candidate: Candidate
    /// The candidate's evidence with the event's own added.
    var evidence: Evidence
    var sensing: Bool
    /// The event's screens, the event-time one first.
    var screens: [Snapshot]
    /// The windows now, for an image that differs from every screen of the event; nil when the
    /// display is gone.
    var contextNow: ScreenContext?
    var rules: RegionsFile?
    /// Every rectangle the rules protected on screen from the capture's read (or its event's
    /// first signal) until now (`ProtectionTimeline`): a window gone before any snapshot was
    /// taken is still held to where it was.
    var protectedMeanwhile: [RegionHit] = []
    var reads: ReadHistory
    var now: Moment
}

/// What the examiner found.
struct Examination {
    enum Place {
        case placed(Alignment, screen: Int)
        case unplaced(reason: String)
    }

    let place: Place
    /// The rules' rectangles in image coordinates (placed images only).
    let hits: [RegionHit]
    /// The image with the rules applied (placed images only).
    let redacted: PixelBuffer?
    let evidence: Evidence
    let judgment: Judgment
    let action: GuardAction
    let notes: [String]
    let facts: PolicyFacts
}

/// Places an image and decides what guard does with it. Pure: no X, no files, no clock.
enum Examiner {
    /// Differing areas (something moving: a video, a spinner, a clock) are tolerated when, all
    /// together, they are at most this share of the image, and each is at least `ruleMargin`
    /// pixels away from everything a rule protects.
    static let movingShare = 0.10
    static let ruleMargin = 16

    static func examine(_ input: ExaminationInput) -> Examination {
        let screens = input.screens.map { ($0.root, $0.context) }
        let eventHits = input.rules?.hits(against: input.screens[0].context) ?? []
        var evidence = input.evidence
        var notes: [String] = []
        var facts = PolicyFacts(source: input.candidate.source, naming: input.candidate.naming, evidence: evidence,
                                sensing: input.sensing, placement: .unplaced, hitsInImage: 0, rulesHitAtEvent: !eventHits.isEmpty)

        func unplaced(_ reason: String) -> Examination {
            facts.evidence = evidence
            let judgment = GuardPolicy.judge(facts)
            return Examination(place: .unplaced(reason: reason), hits: [], redacted: nil, evidence: evidence, judgment: judgment,
                               action: GuardPolicy.action(facts), notes: notes, facts: facts)
        }

        guard let (found, index) = Aligner.alignOnBest(input.image, screens: screens, verify: false,
                                                        tolerance: input.tolerance) else {
            // A smaller copy is taken for the screen's only when its writer is known to hold the
            // screen's pixels: a photo shown full screen, saved smaller, matches as well.
            if tiedToProtectedRead(evidence) {
                let covered = { (index: Int) in protectedOnScreen(input, index) }
                if let index = ScaledScreen.find(input.image, screens: screens, masked: { covered($0).map(\.rect) }) {
                    return examineSmallerCopy(input, screen: index, covered: covered(index), facts: facts, notes: notes)
                }
            }
            return unplaced("was not found on the screen as it was at \(isoTime(input.screens[0].time.wall))")
        }
        let snapshot = input.screens[index]
        var hits = input.rules?.hits(against: snapshot.context) ?? []
        var alignment = found
        // A window's own image is compared only where the window shows; the rest (past the
        // screen's edge, under other windows) is covered from the protected windows' frames. It
        // is taken for the window's only when a read of protected pixels is tied to it: a photo
        // as large as a viewer half hidden, copied, matches as well, and the rules would cover
        // it where it was never compared. One as large as another window the rules protect may
        // be that one's, hidden where it is. Nothing else may reach past the screen.
        if alignment.compared != nil || snapshot.root.bounds.intersection(alignment.rect) != alignment.rect {
            let parts = UncomparedParts(on: snapshot.context, rules: input.rules, meanwhile: input.protectedMeanwhile)
            let uncompared = parts.covers(of: alignment.rect, compared: alignment.compared)
            guard alignment.verified, alignment.compared != nil, tiedToProtectedRead(evidence),
                  !parts.another(than: alignment.windowID, asLargeAs: alignment.rect) else {
                return unplaced("matches the screen only where its window shows, and what a rule protects may be where it "
                    + "does not (at \(isoTime(input.screens[0].time.wall)))")
            }
            hits += uncompared
            notes.append("compared with the screen only where its window shows; \(uncompared.count) rectangles of protected "
                + "windows' frames covered where it does not")
        }
        if !alignment.verified, !hits.isEmpty {
            // Differences where the rules cover on this screen do not count: the shield's covers
            // may be up in one of the two and not the other, and whatever differs there will be
            // covered. What differs elsewhere is judged alone.
            let origin = alignment.rect
            let outside = ImageComparison.compare(input.image, root: snapshot.root, x: origin.x, y: origin.y,
                                                  tolerance: input.tolerance,
                                                  masked: hits.map { $0.rect.offsetBy(dx: -origin.x, dy: -origin.y) })
            alignment.difference = outside.differing.map { $0.offsetBy(dx: origin.x, dy: origin.y) }
            alignment.differingAreas = outside.tiles.areas(width: input.image.width, height: input.image.height)
                .map { $0.offsetBy(dx: origin.x, dy: origin.y) }
            if outside.passes(input.tolerance) { alignment.verified = true }
        }
        if alignment.verified {
            facts.placement = .matched
        } else {
            let zones = protectedZones(input.rules, contexts: input.screens.map(\.context) + [input.contextNow].compactMap { $0 })
                + input.protectedMeanwhile.map(\.zone)
            if isTolerable(alignment, zones: zones) {
                facts.placement = .matched
                notes.append("\(alignment.differingAreas.count) small areas differ from the screen, far from every rule "
                    + "(something moving); placed")
            } else {
                if let rules = input.rules, let now = input.contextNow { hits += rules.hits(against: now) }
                // Where the image differs over a rectangle protected meanwhile (a pop-up that
                // closed before the screen was grabbed), it is covered where it was.
                let differing = alignment.differingAreas.isEmpty ? [alignment.difference].compactMap { $0 } : alignment.differingAreas
                hits += input.protectedMeanwhile.filter { meanwhile in
                    !hits.contains(meanwhile) && differing.contains { !$0.intersection(meanwhile.zone).isEmpty }
                }
                // Every differing pixel must lie under a rule: two areas apart (a shield's covers
                // over two windows) are judged each, not by the box around both.
                let origin = alignment.rect
                let masked = hits.map { $0.rect.offsetBy(dx: -origin.x, dy: -origin.y) }
                guard alignment.differenceIsCovered(by: hits.map(\.rect))
                        || ImageComparison.compare(input.image, root: snapshot.root, x: origin.x, y: origin.y, tolerance: input.tolerance,
                                                   masked: masked).passes(input.tolerance) else {
                    return unplaced("differs from the screen at \(isoTime(input.screens[0].time.wall)) where no rule covers it")
                }
                facts.placement = .differsUnderRules
                notes.append("the image differs from the screen at the event; rules were applied for the windows then and now")
            }
        }
        if evidence.screenRead == nil, let read = input.reads.read(covering: alignment.rect, at: input.now) {
            evidence.screenRead = (read, .area)
        }
        // The same rectangle resolved twice (at the event and now, or protected meanwhile) is
        // redacted and reported once.
        var seen = Set<String>()
        hits = hits.filter { seen.insert("\($0.rect) \($0.fill)").inserted }
        var redacted = input.image
        redacted.hasAlpha = false
        let placedHits = redacted.redact(hits, origin: alignment.rect)
        facts.hitsInImage = placedHits.count
        facts.evidence = evidence
        return Examination(place: .placed(alignment, screen: index), hits: placedHits, redacted: redacted, evidence: evidence,
                           judgment: GuardPolicy.judge(facts), action: GuardPolicy.action(facts), notes: notes, facts: facts)
    }

    /// An image that is the whole screen made smaller (`ScaledScreen`): covered over what the
    /// rules protected on that screen and meanwhile, each rectangle made as small. Its text
    /// cannot be read against the screen's, so with text rules it is set aside.
    private static func examineSmallerCopy(_ input: ExaminationInput, screen index: Int, covered hits: [RegionHit], facts: PolicyFacts,
                                           notes: [String]) -> Examination {
        let screen = input.screens[index].root.bounds
        var facts = facts
        let evidence = input.evidence
        var redacted = input.image
        redacted.hasAlpha = false
        let placedHits = redacted.redact(ScaledScreen.scaled(hits, screen: screen, image: input.image.bounds), origin: input.image.bounds)
        facts.placement = .matched
        facts.hitsInImage = placedHits.count
        facts.evidence = evidence
        let judgment = GuardPolicy.judge(facts)
        let notes = notes + ["a smaller copy of the whole screen (\(input.image.width)x\(input.image.height) of "
            + "\(screen.width)x\(screen.height)): each rule's rectangle is covered made as small, \(ScaledScreen.margin) pixels wider"]
        if input.rules?.hasTextRules == true, judgment.isScreenshot {
            return Examination(place: .unplaced(reason: "is a smaller copy of the screen, whose text cannot be checked"), hits: [],
                               redacted: nil, evidence: evidence, judgment: judgment, action: .setAside, notes: notes, facts: facts)
        }
        return Examination(place: .placed(Alignment(method: .scaled, rect: screen, windowID: nil), screen: index), hits: placedHits,
                           redacted: redacted, evidence: evidence, judgment: judgment, action: GuardPolicy.action(facts), notes: notes,
                           facts: facts)
    }

    /// Whether a read of protected pixels is tied to the image itself (`ScaledScreen.links`):
    /// only then is what the image shows where it cannot be compared with the screen (a smaller
    /// copy, a window's part past the screen's edge) taken for the screen's.
    private static func tiedToProtectedRead(_ evidence: Evidence) -> Bool {
        guard let (read, link) = evidence.screenRead else { return false }
        return read.holdsProtectedPixels && ScaledScreen.links.contains(link)
    }

    /// What the rules protect on screen `index`, and what they protected at any moment since
    /// the read, each rectangle once: a smaller copy's pixels cannot be told from the screen's
    /// finely enough to know what moved, so all of it is covered.
    private static func protectedOnScreen(_ input: ExaminationInput, _ index: Int) -> [RegionHit] {
        var seen = Set<String>()
        return ((input.rules?.hits(against: input.screens[index].context) ?? []) + input.protectedMeanwhile)
            .filter { seen.insert("\($0.rect) \($0.fill)").inserted }
    }

    /// Whether an image that differs from the screen may still pass as placed: its differing
    /// areas are few and small, and none comes near what a rule protects (so none can hide a
    /// rule's pixels).
    static func isTolerable(_ alignment: Alignment, zones: [Rect]) -> Bool {
        guard !alignment.differingAreas.isEmpty, alignment.differingFraction <= movingShare else { return false }
        return alignment.differingAreas.allSatisfy { area in
            let grown = Rect(x: area.x - ruleMargin, y: area.y - ruleMargin, width: area.width + 2 * ruleMargin,
                             height: area.height + 2 * ruleMargin)
            return zones.allSatisfy { $0.intersection(grown).isEmpty }
        }
    }

    /// Everything the rules protect on any of `contexts`: each hit's whole target, before the
    /// windows above it are taken away (what another window hides now may show in the image).
    static func protectedZones(_ rules: RegionsFile?, contexts: [ScreenContext]) -> [Rect] {
        guard let rules else { return [] }
        return contexts.flatMap { context in rules.zones(against: context).map(\.zone) }
    }

    private static func isoTime(_ wall: Double) -> String { Log.iso8601(wall) }
}
