// Guard's second pass: a placed screenshot's text rules checked by OCR off the loop, then the file rewritten again or the clipboard served.
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardText

/// What a finished text pass came to, for the tracker, the log and the report.
struct TextPassOutcome {
    let candidate: Candidate
    /// The image with every cover on (rectangles and text), for the report; nil when the
    /// screenshot was set aside instead.
    let image: PixelBuffer?
    let covers: [TextHit]
    var ownKeys: [String] = []
    var file: String?
    var clipboard: String?
    var quarantine: String?
    /// Lines for the log at their levels; errors for a screenshot whose text could not be
    /// covered (set aside, made unreadable, not rewritten).
    var lines: [LogLine] = []

    /// What the report notes when the pass failed: its first error, else its first warning.
    var note: String? {
        lines.first { $0.level == .error }?.text ?? lines.first { $0.level == .warning }?.text
    }
}

extension CandidateHandler {
    /// Starts the text pass of a placed screenshot with `rules` (resolved on the loop's thread).
    func startTextPass(_ pending: PendingTextPass, rules: [TextRule]) {
        guard let textPasses else { return }
        let number = textPasses.submit(pending.image, origin: pending.origin, skipping: pending.skipping, rules: rules)
        waitingText[number] = pending
    }

    /// The passes that ended: each applied — the file rewritten again, the clipboard served — or,
    /// when the text could not be checked, failed closed (the file set aside, the clipboard given a
    /// placeholder).
    func finishTextPasses(eventID: String, isOwn: (String) -> Bool) -> [TextPassOutcome] {
        guard let textPasses else { return [] }
        return textPasses.takeResults().compactMap { result in
            guard let pending = waitingText.removeValue(forKey: result.number) else { return nil }
            return finish(pending, result, eventID: eventID, isOwn: isOwn)
        }
    }

    private func finish(_ pending: PendingTextPass, _ result: TextJobResult, eventID: String,
                        isOwn: (String) -> Bool) -> TextPassOutcome {
        let candidate = pending.candidate
        guard result.complete, result.failure == nil else {
            let why = "its text could not be checked (\(result.failure ?? "incomplete"))"
            var outcome = TextPassOutcome(candidate: candidate, image: nil, covers: [])
            switch candidate.source {
            case .file:
                guard let path = candidate.path, let fileGuard else { break }
                let current = readCurrent(path, pending, isOwn: isOwn)
                if case .replaced = current {
                    outcome.lines.append(.warning("guard: \(candidate.name): \(why), but it was replaced since: left as it is now"))
                    break
                }
                let aside = fileGuard.setAside(path, read: current.read, held: current.read?.held ?? candidate.held,
                                               size: (pending.image.width, pending.image.height), reason: why,
                                               id: eventID)
                switch aside {
                case .setAside(let entry, _, let keys, _, let warning):
                    if let warning { outcome.lines.append(.warning("guard: \(candidate.name): \(warning)")) }
                    outcome.ownKeys = keys
                    outcome.file = "quarantined"
                    outcome.quarantine = entry
                    outcome.lines.append(.error("guard: \(candidate.name): \(why): set aside, its original in quarantine as \(entry)"))
                case .madeUnreadable(let reason):
                    outcome.file = "unreadable"
                    outcome.lines.append(.error("guard: \(candidate.name): \(why), and it could not be set aside (\(reason)): "
                        + "its mode is now 0"))
                case .failed(let reason):
                    outcome.file = "failed"
                    outcome.lines.append(.error("guard: \(candidate.name): \(why), and it could not be set aside: \(reason)"))
                case .untouched(let reason):
                    outcome.lines.append(.warning("guard: \(candidate.name): \(why); left alone: \(reason)"))
                case .changed, .rewritten:
                    outcome.lines.append(.warning("guard: \(candidate.name): \(why), but it changed since: left as it is now"))
                }
            case .clipboard:
                guard let offer = candidate.clipboard, let clipboardGuard else { break }
                let served = clipboardGuard.serve(Placeholder.image(width: pending.image.width, height: pending.image.height,
                                                                    quarantineID: nil), for: offer)
                outcome.ownKeys = served.ownKeys
                outcome.clipboard = "withheld"
                outcome.lines.append(.warning("guard: the clipboard image: \(why); a placeholder is served"))
            }
            return outcome
        }
        var image = pending.image
        for hit in result.hits { image.redact(hit.rect, with: hit.fill) }
        var outcome = TextPassOutcome(candidate: candidate, image: image, covers: result.hits)
        let kinds = result.hits.map { "\($0.kind.rawValue) at \($0.rect)" }.joined(separator: ", ")
        switch candidate.source {
        case .file:
            guard !result.hits.isEmpty, let path = candidate.path, let fileGuard else { break }
            let guarded: FileGuardResult
            switch readCurrent(path, pending, isOwn: isOwn) {
            case .replaced:
                guarded = .changed
            case .unreadable(let reason):
                // Its text is still in it: set aside as it is, unread.
                guarded = fileGuard.setAside(path, read: nil, held: pending.rewrittenAt.flatMap { HeldFile.open($0) } ?? candidate.held,
                                             size: (image.width, image.height),
                                             reason: "its text rules' covers could not be written (\(reason))", id: eventID)
            case .same(let current):
                guarded = fileGuard.redact(path, read: current, with: image, id: eventID)
            }
            switch guarded {
            case .rewritten(let keys, let milliseconds, _, _, let warning, _):
                if let warning { outcome.lines.append(.warning("guard: \(candidate.name): \(warning)")) }
                outcome.ownKeys = keys
                outcome.file = "rewritten"
                outcome.lines.append(.info("guard: rewrote \(candidate.name) again with the text rules' covers (\(kinds)) "
                    + "in \(milliseconds) ms"))
            case .setAside(let entry, _, let keys, let reason, let warning):
                if let warning { outcome.lines.append(.warning("guard: \(candidate.name): \(warning)")) }
                outcome.ownKeys = keys
                outcome.file = "quarantined"
                outcome.quarantine = entry
                outcome.lines.append(.error("guard: \(candidate.name) could not be rewritten with the text rules' covers (\(reason)): "
                    + "set aside, its original in quarantine as \(entry)"))
            case .madeUnreadable(let reason):
                outcome.file = "unreadable"
                outcome.lines.append(.error("guard: \(candidate.name) could not be rewritten with the text rules' covers nor set aside "
                    + "(\(reason)): its mode is now 0"))
            case .failed(let reason):
                outcome.file = "failed"
                outcome.lines.append(.error("guard: could not rewrite \(candidate.name) with the text rules' covers: \(reason)"))
            case .untouched(let reason):
                outcome.lines.append(.warning("guard: did not rewrite \(candidate.name) with the text rules' covers: \(reason)"))
            case .changed:
                outcome.lines.append(.warning("guard: \(candidate.name) changed before its text rules' covers were written: "
                    + "left as it is now"))
            }
        case .clipboard:
            guard let offer = candidate.clipboard, let clipboardGuard else { break }
            if result.hits.isEmpty, pending.skipping.isEmpty {
                // Nothing to hide after all: what the owner offered, byte for byte.
                clipboardGuard.serveBack(offer)
                outcome.clipboard = "unchanged"
            } else {
                let served = clipboardGuard.serve(image, for: offer)
                outcome.ownKeys = served.ownKeys
                outcome.clipboard = served.served ? "replaced" : "failed"
                if served.served { clipboardGuard.replaced(offer, at: Moment(monotonic: monotonicNow(), wall: now())) }
                outcome.lines.append(.info("guard: the clipboard now holds the redacted image"
                    + (kinds.isEmpty ? "" : " (text: \(kinds))")))
            }
        }
        return outcome
    }

    /// The file at `path` now, when it is still the one read or guard's own first rewrite of it.
    enum CurrentFile {
        case same(FileRead)
        /// Gone, or written there since by someone else: never touched.
        case replaced
        /// Still the screenshot, but its bytes cannot be read: it is set aside as it is.
        case unreadable(reason: String)

        var read: FileRead? {
            guard case .same(let read) = self else { return nil }
            return read
        }
    }

    /// The file at `path` now (see `CurrentFile`).
    func readCurrent(_ path: BytePath, _ pending: PendingTextPass, isOwn: (String) -> Bool) -> CurrentFile {
        // Guard's first rewrite where it put it; else the file held (its name now, or its inode,
        // rewritten in place); else the path.
        let held = pending.candidate.held
        let opened: HeldFile?
        if let rewritten = pending.rewrittenAt {
            opened = HeldFile.open(rewritten)
        } else if let held {
            opened = held.currentPath.flatMap { HeldFile.open($0) } ?? held
        } else {
            opened = HeldFile.open(path)
        }
        guard let file = opened, let identity = file.identity,
              FileKeys.key(identity) == pending.fileKey || isOwn(FileKeys.key(identity)) else { return .replaced }
        do throws(FileError) {
            let bytes = try file.readAll(name: path.description, limit: Self.maximumFileSize)
            return .same(FileRead(bytes: bytes, identity: identity, held: file))
        } catch {
            return .unreadable(reason: error.description)
        }
    }

    /// Whether text passes are running (the event waits for them).
    var textPassesRunning: Bool { !waitingText.isEmpty }
}
