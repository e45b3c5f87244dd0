// Examines one candidate and carries out guard's action: read, decode, place, judge, then rewrite, set aside, serve or leave.
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

/// What handling one candidate came to: the tracker's outcome, and what the other parts must
/// note (guard's own outputs, the report's guard object, a note).
struct HandlingResult {
    var outcome: ExaminationOutcome
    var ownKeys: [String] = []
    var file: String?
    var clipboard: String?
    var quarantine: String?
    var note: String?
    /// Why it was left as it was (for the event stream; the log says it in words).
    var leftBecause: LeftBecause?
    /// Lines for the log, each at its level: info (what guard did), verbose (why), warnings,
    /// and errors for a screenshot guard could not redact (set aside, made unreadable, or left
    /// as it was), since protection failed closed or not at all.
    var lines: [LogLine] = []
    /// A placed screenshot whose text rules are still to be checked (guard's second pass): the
    /// image with the rectangle rules applied, where it sits, what is covered already.
    var textPass: PendingTextPass?
    /// Where guard wrote the redacted file, when it did so under a name.
    var rewrittenAt: BytePath?
}

/// A screenshot waiting for its text pass.
struct PendingTextPass: Sendable {
    let candidate: Candidate
    var image: PixelBuffer
    let origin: Rect
    let skipping: [Rect]
    /// The windows of the snapshot it was placed on (the rules limited to windows are resolved
    /// against them).
    let screen: ScreenContext
    /// The file's key as it was read: the second rewrite touches only that file or guard's own
    /// first rewrite of it, never one written there since.
    let fileKey: String?
    /// Where the first rewrite put the redacted file (the file may have moved before it).
    var rewrittenAt: BytePath?
}

/// Turns a candidate into a decision and carries it out. The decision itself is the pure
/// `Examiner`; this part reads the file (through the descriptor it checked), decodes, and hands
/// guard's action to the file and clipboard guards.
final class CandidateHandler {
    let fileGuard: (any FileGuarding)?
    let clipboardGuard: (any ClipboardGuarding)?
    /// Guard's second pass for text rules, off the loop; nil when its pipe cannot be made.
    let textPasses = TextPasses()
    /// The screenshots whose text pass runs, by pass number.
    var waitingText: [Int: PendingTextPass] = [:]
    /// Screenshots redacted or set aside lately, by their original bytes and pixels: a copy of
    /// one is guarded as it was.
    private(set) var originals = RecentOriginals()

    /// Largest screenshot file read; a larger one that is a screenshot is set aside unread.
    static let maximumFileSize = 64 * 1024 * 1024

    init(fileGuard: (any FileGuarding)?, clipboardGuard: (any ClipboardGuarding)?) {
        self.fileGuard = fileGuard
        self.clipboardGuard = clipboardGuard
    }

    /// Everything the examination needs besides the candidate.
    struct Context {
        var event: CaptureEvent
        var rules: RegionsFile?
        var contextNow: () -> ScreenContext?
        var reads: ReadHistory
        var sensing: Bool
        var now: Moment
        /// Whether a key names guard's own output (bytes it wrote or served, a file it renamed).
        var isOwn: (String) -> Bool = { _ in false }
        /// Whether the rules have `text` rules: a placed screenshot then has a second pass, and a
        /// clipboard image is served only once its text is checked.
        var hasTextRules = false
        /// Called between the long steps (decoding, placing, rewriting): the shield's key must
        /// not wait behind them.
        var betweenSteps: () -> Void = {}
        /// What the rules protected on screen from the given moment (monotonic) until now.
        var protectedSince: (Double) -> [RegionHit] = { _ in [] }
        /// The screen and its windows as they are now (nil: it cannot be grabbed).
        var freshSnapshot: () -> Snapshot? = { nil }
    }

    /// A window protected this long before a capture's read or first signal still counts: the
    /// agent hears of a window change a moment after it happens.
    static let protectionMargin = 0.5

    /// A screenshot program's read this soon before a file named as a screenshot ties it to a capture.
    static let recentReadWindow = 10.0

    func handle(_ candidate: Candidate, in context: Context) -> HandlingResult {
        // Examined again for a read learnt late, it is judged by what ties it to that read alone:
        // the event it joins now (a tool window, the shield's key a moment later) is not its.
        var evidence = candidate.judgements > 0 ? candidate.evidence : candidate.evidence.merged(with: context.event.evidence)
        if candidate.naming == .strong, evidence.screenRead == nil,
           let read = context.reads.screenshotRead(before: candidate.arrived, within: Self.recentReadWindow) {
            evidence.screenRead = (read, .recent)
        }
        if candidate.naming == .weak, context.sensing, evidence.isEmpty,
           !context.reads.anyRead(within: ReadHistory.horizon, at: context.now) {
            return HandlingResult(outcome: .left(reason: "no program read the screen in the half minute before it"),
                                  leftBecause: .noScreenRead)
        }
        let read: (bytes: [UInt8], file: FileRead?)
        switch readCandidate(candidate) {
        case .success(let value):
            read = value
        case .failure(let failure):
            return unreadable(candidate, failure, evidence: evidence, in: context)
        }
        // Looked at again, a file may now be what guard wrote in its place.
        let bytesKey = "bytes:" + fnv1a(read.bytes)
        if context.isOwn(bytesKey) || read.file.map({ context.isOwn(FileKeys.key($0.identity)) }) ?? false {
            return HandlingResult(outcome: .left(reason: "it is guard's own output now"), leftBecause: .ownOutput)
        }
        // A copy of a screenshot guard took in, made before the rewrite: its bytes tell first.
        var original = originals.original(bytes: bytesKey, pixels: { nil }, at: context.now.monotonic)
        if let original { evidence.copyOf = original.name }
        let decoded: DecodedImage
        let decodeStart = monotonicNow()
        do throws(ImagingError) {
            decoded = try ImageCodec.decode(read.bytes, source: candidate.name)
        } catch {
            // Not complete yet (a writer in steps), or not an image at all: looked at again a
            // few times before it is judged. An image in a format guard does not read (MIFF,
            // PDF, JPEG 2000…) is judged at once: looking again changes nothing.
            let foreign = ImageSignature.foreignFormat(Array(read.bytes.prefix(ImageSignature.length)))
            if candidate.source == .file, candidate.looks < CaptureTracker.maximumLooks, foreign == nil {
                return HandlingResult(outcome: .lookAgain(delay: CaptureTracker.lookInterval))
            }
            let reason = foreign.map { "is a \($0) image, a format guard cannot read" } ?? "could not be decoded: \(error.message)"
            let result = judgeUnplaced(candidate, reason: reason, read: read, evidence: evidence, in: context, size: nil)
            remember(candidate, result, keys: { [bytesKey] }, screen: nil, at: context.now)
            return result
        }
        // Or its pixels, in another lossless format (`convert shot.png shot.webp` from the original).
        var pixelsKey: String?
        if original == nil, !originals.isEmpty {
            pixelsKey = "pixels:" + pixelFingerprint(decoded.image)
            original = originals.original(bytes: bytesKey, pixels: { pixelsKey }, at: context.now.monotonic)
            if let original { evidence.copyOf = original.name }
        }
        context.betweenSteps()
        let examineStart = monotonicNow()
        var screens = Self.screens(for: candidate, in: context.event, original: original?.screen)
        let protectedMeanwhile = context.protectedSince(min(context.event.start.monotonic, evidence.screenRead?.read.time.monotonic
            ?? .infinity) - Self.protectionMargin)
        func examine() -> Examination {
            Examiner.examine(ExaminationInput(
                image: decoded.image, tolerance: .forImage(decoded), candidate: candidate, evidence: evidence, sensing: context.sensing,
                screens: screens, contextNow: context.contextNow(), rules: context.rules, protectedMeanwhile: protectedMeanwhile,
                reads: context.reads, now: context.now))
        }
        var examination = examine()
        // The screens grabbed at the signals may show what the program drew right after its
        // read (gnome-screenshot's white flash over the whole screen, grabbed by the agent a few
        // milliseconds after the read): a screenshot that fits none is tried on the screen as it
        // is now too. One that differs from it as well is set aside as before.
        if case .unplaced = examination.place, examination.judgment.isScreenshot, let fresh = context.freshSnapshot() {
            screens.append(fresh)
            examination = examine()
        }
        // The costs of a placement, for the log (and the guard bench that reads it).
        let timing = "decoded in \(milliseconds(examineStart - decodeStart)), placed in \(milliseconds(monotonicNow() - examineStart))"
        context.betweenSteps()
        switch examination.place {
        case .unplaced(let reason):
            let result = act(on: candidate, examination, read: read, in: context, size: (decoded.image.width, decoded.image.height),
                             unplacedReason: reason)
            remember(candidate, result, keys: { [bytesKey, pixelsKey ?? "pixels:" + pixelFingerprint(decoded.image)] }, screen: nil,
                     at: context.now)
            return result
        case .placed(let alignment, let screen):
            var result = act(on: candidate, examination, read: read, in: context, size: nil, unplacedReason: nil)
            let pixels = pixelsKey ?? "pixels:" + pixelFingerprint(decoded.image)
            remember(candidate, result, keys: { [bytesKey, pixels] }, screen: screens[screen], at: context.now)
            guard examination.judgment.isScreenshot, case .left = result.outcome, let redacted = examination.redacted else {
                return result
            }
            if context.hasTextRules {
                result.textPass = PendingTextPass(candidate: candidate, image: redacted, origin: alignment.rect,
                                                  skipping: examination.hits.map(\.rect), screen: screens[screen].context,
                                                  fileKey: read.file.map { FileKeys.key($0.identity) }, rewrittenAt: result.rewrittenAt)
            }
            let placed = PlacedImage(candidate: candidate, image: redacted, alignment: alignment, redactions: examination.hits,
                                     notes: examination.notes, evidence: examination.evidence.phrases)
            result.outcome = .placed(placed, fingerprint: pixels)
            result.lines.append(.verbose("placed \(candidate.name) by \(alignment.method.rawValue) at \(alignment.rect): "
                + "\(examination.hits.count) rectangles (\(examination.judgment.reason); \(timing))"))
            return result
        }
    }

    /// The screens an image is placed on: the event's, then those of the moment its pixels were
    /// read when that was before the event (an editor saving a capture a minute after it, the
    /// screen changed since), and that of the original it is a copy of.
    static func screens(for candidate: Candidate, in event: CaptureEvent, original: Snapshot?) -> [Snapshot] {
        var screens = event.snapshots
        for screen in candidate.readScreens + [original].compactMap({ $0 })
        where !screens.contains(where: { $0.time.monotonic == screen.time.monotonic }) {
            screens.append(screen)
        }
        return screens
    }

    /// Notes a screenshot guard redacted or set aside as an original, by its bytes and pixels:
    /// a copy of it seen later is guarded as it was.
    private func remember(_ candidate: Candidate, _ result: HandlingResult, keys: () -> [String], screen: Snapshot?, at now: Moment) {
        let guarded = ["rewritten", "quarantined", "unreadable"].contains(result.file ?? "")
            || ["replaced", "withheld"].contains(result.clipboard ?? "")
        guard guarded else { return }
        originals.note(keys: Set(keys()), RecentOriginal(name: candidate.name, screen: screen, at: now.monotonic))
    }

    /// Carries out the examination's action. The outcome is `.left` for a placed screenshot
    /// (the caller makes it `.placed`) and for anything that is no screenshot.
    private func act(on candidate: Candidate, _ examination: Examination, read: (bytes: [UInt8], file: FileRead?),
                     in context: Context, size: (Int, Int)?, unplacedReason: String?) -> HandlingResult {
        var result = HandlingResult(outcome: .left(reason: examination.judgment.reason),
                                    leftBecause: examination.judgment.isScreenshot ? nil : .notScreenshot)
        if let unplacedReason, examination.judgment.isScreenshot {
            result.outcome = .screenshotUnplaced(reason: unplacedReason)
        }
        switch candidate.source {
        case .file:
            guard let path = candidate.path, let file = read.file, let fileGuard else { break }
            if examination.action != .leave { context.betweenSteps() }
            switch examination.action {
            case .leave:
                if examination.judgment.isScreenshot { result.file = "unchanged" }
            case .redact:
                guard let redacted = examination.redacted else { break }
                apply(fileGuard.redact(path, read: file, with: redacted, id: context.event.id), to: &result, candidate: candidate)
            case .setAside:
                apply(fileGuard.setAside(path, read: file, held: candidate.held, size: size, reason: unplacedReason ?? "its rules could not be applied",
                                         id: context.event.id), to: &result, candidate: candidate)
            }
        case .clipboard:
            guard let offer = candidate.clipboard, let clipboardGuard else { break }
            if context.hasTextRules, examination.judgment.isScreenshot, examination.action != .setAside {
                // Pastes wait for the text pass (bounded) rather than get an image whose text
                // was not checked: the clipboard is taken now and served when the pass ends.
                if !clipboardGuard.isPending {
                    let taken = clipboardGuard.takeOver(from: offer)
                    if !taken.taken { result.lines.append(.warning("guard: \(taken.why)")) }
                }
                result.lines.append(.info("guard: the clipboard waits for the text rules' pass"))
                return result
            }
            switch examination.action {
            case .leave:
                if clipboardGuard.isPending {
                    clipboardGuard.serveBack(offer)
                    result.lines.append(.info("guard: the clipboard serves back what its owner offered, byte for byte"))
                }
                if examination.judgment.isScreenshot { result.clipboard = "unchanged" }
            case .redact:
                guard let redacted = examination.redacted else { break }
                serve(redacted, offer, outcome: "replaced", via: clipboardGuard, into: &result, at: context.now)
            case .setAside:
                let placeholder = Placeholder.image(width: size?.0, height: size?.1, quarantineID: nil)
                serve(placeholder, offer, outcome: "withheld", via: clipboardGuard, into: &result, at: context.now)
            }
        }
        return result
    }

    private func serve(_ image: PixelBuffer, _ offer: ClipboardOffer, outcome: String, via clipboardGuard: any ClipboardGuarding,
                       into result: inout HandlingResult, at now: Moment) {
        let served = clipboardGuard.serve(image, for: offer)
        guard served.served else {
            result.clipboard = "failed"
            result.lines.append(.warning("guard: did not replace the clipboard image: \(served.why)"))
            return
        }
        clipboardGuard.replaced(offer, at: now)
        result.ownKeys += served.ownKeys
        result.clipboard = outcome
        result.lines.append(.info(outcome == "replaced" ? "guard: the clipboard now holds the redacted image"
            : "guard: the clipboard now holds a placeholder: the image could not be redacted"))
    }

    private func apply(_ guarded: FileGuardResult, to result: inout HandlingResult, candidate: Candidate) {
        let path = candidate.name
        result.lines += (fileGuard?.takeProblems() ?? []).map { .error("guard: \($0)") }
        switch guarded {
        case .rewritten(let keys, let milliseconds, let thumbnails, let entry, let warning, let at):
            result.ownKeys += keys
            result.file = "rewritten"
            result.rewrittenAt = at
            if let entry { result.quarantine = entry }
            result.lines.append(.info("guard: rewrote \(path) redacted in \(milliseconds) ms"
                + (thumbnails > 0 ? "; removed \(thumbnails) thumbnails" : "")
                + (entry.map { "; its other names share the redacted file, and its original is in quarantine as \($0)" } ?? "")))
            if let warning { result.lines.append(.warning("guard: \(path): \(warning)")) }
        case .setAside(let entry, let placeholder, let keys, let reason, let warning):
            if let warning { result.lines.append(.warning("guard: \(path): \(warning)")) }
            result.ownKeys += keys
            result.file = "quarantined"
            result.quarantine = entry
            result.lines.append(.error("guard: \(path) could not be redacted (\(reason)): its original is in quarantine as \(entry) "
                + "('shotguard quarantine restore \(entry)')"
                + (placeholder ? ", and a placeholder took its place" : "; its path is empty")))
        case .changed:
            if candidate.rereads == 0 {
                result.outcome = .readAgain
                result.lines.append(.info("guard: \(path) changed while it was read; reading it again"))
            } else {
                result.outcome = .screenshotUnplaced(reason: "changed twice while guard rewrote it")
            }
        case .madeUnreadable(let reason):
            result.file = "unreadable"
            result.lines.append(.error("guard: \(path) could not be redacted nor moved aside (\(reason)): its mode is now 0, "
                + "so nothing reads it; 'chmod 600' gives it back"))
        case .untouched(let reason):
            result.file = "untouched"
            result.lines.append(.warning("guard: left \(path) alone: \(reason)"))
        case .failed(let reason):
            result.file = "failed"
            result.note = "guard could not rewrite \(path): \(reason)"
            result.lines.append(.error("guard: could not rewrite \(path): \(reason)"))
        }
    }

    /// A file that could not be read as an image: gone (left), too large (set aside when it is
    /// a screenshot), not complete (looked at again).
    private func unreadable(_ candidate: Candidate, _ failure: ReadFailure, evidence: Evidence, in context: Context) -> HandlingResult {
        switch failure {
        case .gone(let reason):
            return HandlingResult(outcome: .left(reason: reason), leftBecause: .gone)
        case .tooLarge(let identity):
            return judgeUnplaced(candidate, reason: "is larger than \(Self.maximumFileSize / 1024 / 1024) MiB", read: nil,
                                 evidence: evidence, in: context, size: nil, identity: identity)
        }
    }

    /// An image that could not be examined at all: judged by its evidence and name alone.
    private func judgeUnplaced(_ candidate: Candidate, reason: String, read: (bytes: [UInt8], file: FileRead?)?, evidence: Evidence,
                               in context: Context, size: (Int, Int)?, identity: FileIdentity? = nil) -> HandlingResult {
        let hitsNow = !(context.rules?.hits(against: context.event.eventTime.context).isEmpty ?? true)
        let facts = PolicyFacts(source: candidate.source, naming: candidate.naming, evidence: evidence, sensing: context.sensing,
                                placement: .unplaced, hitsInImage: 0, rulesHitAtEvent: hitsNow)
        let judgment = GuardPolicy.judge(facts)
        var result = HandlingResult(outcome: judgment.isScreenshot ? .screenshotUnplaced(reason: reason)
            : .left(reason: "it \(reason), and \(judgment.reason)"), leftBecause: judgment.isScreenshot ? nil : .notScreenshot)
        guard GuardPolicy.action(facts) == .setAside else { return result }
        switch candidate.source {
        case .file:
            guard let path = candidate.path, let fileGuard else { break }
            apply(fileGuard.setAside(path, read: read?.file, held: candidate.held, size: size, reason: reason, id: context.event.id),
                  to: &result,
                  candidate: candidate)
        case .clipboard:
            guard let offer = candidate.clipboard, let clipboardGuard else { break }
            serve(Placeholder.image(width: nil, height: nil, quarantineID: nil), offer, outcome: "withheld", via: clipboardGuard,
                  into: &result, at: context.now)
        }
        return result
    }

    enum ReadFailure: Error {
        case gone(String)
        case tooLarge(FileIdentity)
    }

    /// The file's bytes and identity (read through the descriptor that was checked), or the
    /// clipboard's bytes.
    private func readCandidate(_ candidate: Candidate) -> Result<(bytes: [UInt8], file: FileRead?), ReadFailure> {
        guard let path = candidate.path else { return .success((candidate.clipboard?.image ?? [], nil)) }
        if let held = candidate.held {
            // The file the agent holds: read through it, wherever its name went meanwhile.
            guard let identity = held.identity else { return .failure(.gone("it could not be examined: \(errnoText())")) }
            // No name left: deleted, or replaced since (by guard's own rewrite among others).
            guard identity.links > 0 else { return .failure(.gone("it has no name left (deleted or replaced)")) }
            guard identity.size <= Int64(Self.maximumFileSize) else { return .failure(.tooLarge(identity)) }
            do throws(FileError) {
                let bytes = try held.readAll(name: path.description, limit: Self.maximumFileSize)
                return .success((bytes, FileRead(bytes: bytes, identity: identity, held: held)))
            } catch {
                return .failure(error.kind == .tooLarge ? .tooLarge(identity) : .gone("it could not be read: \(error.message)"))
            }
        }
        let fd = path.withCString { open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return .failure(.gone("it could not be opened: \(errnoText())")) }
        defer { close(fd) }
        guard let identity = FileIdentity.of(fd: fd), identity.mode & S_IFMT == S_IFREG else {
            return .failure(.gone("it is not a regular file"))
        }
        guard identity.size <= Int64(Self.maximumFileSize) else { return .failure(.tooLarge(identity)) }
        do throws(FileError) {
            let bytes = try FileIO.read(fd: fd, name: path.description, limit: Self.maximumFileSize)
            return .success((bytes, FileRead(bytes: bytes, identity: identity)))
        } catch {
            return .failure(error.kind == .tooLarge ? .tooLarge(identity) : .gone("it could not be read: \(error.message)"))
        }
    }
}
