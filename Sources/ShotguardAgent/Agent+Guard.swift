// Guard: the screenshot file rewritten redacted in place, the clipboard served redacted, quarantine.
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardX11

/// Takes over CLIPBOARD for guard: ownership first (requests wait), the redacted image after.
protocol ClipboardGuardian: AnyObject {
    /// Takes CLIPBOARD now, before the redacted image is ready; false when it could not.
    func takeOver() -> Bool
    /// Serves the image under each target (MIME name → bytes, the preferred first) to the
    /// requests that waited and to every later one, until someone else takes the clipboard.
    func provide(_ images: [(target: String, bytes: [UInt8])])
    /// Whether the agent owns CLIPBOARD and has not provided an image yet.
    var isPending: Bool { get }
    /// Gives CLIPBOARD up when no safe image can be served: pastes then get nothing.
    func release(reason: String)
}

extension Agent {
    /// Acts on a placed candidate: rewrites the file or serves the redacted clipboard image.
    func guardPlaced(_ candidate: Candidate, action: GuardAction, original: (bytes: [UInt8], identity: FileIdentity?),
                     redacted: PixelBuffer, hitCount: Int, in event: CaptureEvent) {
        switch candidate.source {
        case .file:
            guard let path = candidate.path, let identity = original.identity else { return }
            if action == .rewrite {
                rewrite(path, identity: identity, originalBytes: original.bytes, with: redacted, candidate: candidate,
                        hitCount: hitCount, in: event)
            } else if event.guardOutcome.file == nil {
                event.guardOutcome.file = "unchanged"
            }
        case .clipboard:
            if action == .rewrite {
                serveClipboard(redacted, offered: candidate.clipboardTargets, original: original.bytes, outcome: "replaced", in: event)
            } else if let clipboardGuardian, clipboardGuardian.isPending {
                // Nothing to hide in it: the same bytes the tool offered, under the target they
                // were read as; the other targets it offered, encoded from the same pixels.
                let read = candidate.clipboardTargets.first ?? "image/png"
                let others = candidate.clipboardTargets.dropFirst().compactMap { target in
                    (try? ClipboardImages.encode(redacted, as: target, original: original.bytes)).map { (target: target, bytes: $0) }
                }
                clipboardGuardian.provide([(target: read, bytes: original.bytes)] + others)
                event.guardOutcome.clipboard = event.guardOutcome.clipboard ?? "unchanged"
            }
        case .fallback, .none:
            break
        }
    }

    /// A clipboard image that cannot be placed: when rules hit the event-time screen, it is
    /// replaced by the redacted fallback; otherwise it is served as it was.
    func guardUnplacedClipboard(_ candidate: Candidate, in event: CaptureEvent) {
        let hits = regions?.hits(against: event.eventTime.context) ?? []
        if !hits.isEmpty {
            serveClipboard(redactedFallback(of: event), offered: candidate.clipboardTargets, original: candidate.bytes,
                           outcome: "fallback", in: event)
        } else if let clipboardGuardian, clipboardGuardian.isPending, let bytes = candidate.bytes {
            clipboardGuardian.provide([(target: candidate.clipboardTargets.first ?? "image/png", bytes: bytes)])
        }
    }

    /// Serves `image` as PNG and under every other image target the original offered.
    private func serveClipboard(_ image: PixelBuffer, offered: [String], original: [UInt8]?, outcome: String,
                                in event: CaptureEvent) {
        guard let clipboardGuardian else { return }
        do throws(ImagingError) {
            let (images, skipped) = try ClipboardImages.encodeAll(image, offered: offered, original: original)
            for target in skipped { log.warning("guard: the clipboard will not offer \(target)") }
            for served in images { ownOutputs.insert("bytes:" + fnv1a(served.bytes), now: monotonicNow()) }
            if !clipboardGuardian.isPending, !clipboardGuardian.takeOver() {
                log.error("guard: could not take over the clipboard; it still holds the unredacted image")
                event.guardOutcome.clipboard = "failed"
                return
            }
            clipboardGuardian.provide(images)
            event.guardOutcome.clipboard = outcome
            log.info("guard: the clipboard now holds the \(outcome == "fallback" ? "redacted fallback" : "redacted image")")
        } catch {
            // Fail closed: guard takes CLIPBOARD (if it does not own it yet) and gives it up
            // empty, so pastes get nothing rather than the original.
            log.error("guard: cannot encode the clipboard image: \(error.description); the clipboard is left empty")
            if clipboardGuardian.isPending || clipboardGuardian.takeOver() {
                clipboardGuardian.release(reason: "the redacted image could not be encoded")
            }
            event.guardOutcome.clipboard = "failed"
        }
    }

    /// Replaces the screenshot file with its redacted version (same path, format, mode and
    /// mtime). If the file changed since it was read, it is read and placed again once.
    private func rewrite(_ path: BytePath, identity: FileIdentity, originalBytes: [UInt8], with image: PixelBuffer, candidate: Candidate,
                         hitCount: Int, in event: CaptureEvent) {
        guard GuardPolicy.mayRewrite(modified: seconds(identity.modified), agentStart: startTime,
                                     ownedByUser: identity.owner == getuid(), isOwnRewrite: false) else {
            log.warning("guard: left \(path) alone: written before the agent started or not this user's")
            return
        }
        let started = monotonicNow()
        do throws(RewriteError) {
            let bytes = try encodeLike(path, original: originalBytes, image)
            var rewrite = FileRewrite(path: path, original: identity)
            try rewrite.prepare(bytes)
            try rewrite.commit()
            rememberOwnWrite(path, bytes: bytes)
            let thumbnails = self.thumbnails.remove(forPath: path.bytes)
            event.guardOutcome.file = "rewritten"
            log.info("guard: rewrote \(path) with \(hitCount) rectangles redacted in \(Int((monotonicNow() - started) * 1000)) ms"
                + (thumbnails > 0 ? "; removed \(thumbnails) thumbnails" : ""))
        } catch {
            switch error.kind {
            case .changed where candidate.attempt == 0:
                log.info("guard: \(error.description); reading it again")
                var again = candidate
                again.attempt = 1
                event.pending.append(again)
            case .changed:
                recordUnplaced(candidate, reason: "changed twice while guard rewrote it", in: event)
            case .io:
                log.error("guard: could not rewrite \(path): \(error.description)")
                event.guardOutcome.file = "failed"
                event.notes.append("guard could not rewrite \(path): \(error.description)")
            }
        }
    }

    /// Quarantines an unplaced screenshot file: the original into the quarantine folder, the
    /// redacted fallback in its place. Called at settle, once bursts are known.
    func quarantineFile(_ candidate: Candidate, reason: String, in event: CaptureEvent, index: Int) {
        guard let path = candidate.path else { return }
        guard case .success(let read) = readCandidate(candidate), let identity = read.identity else {
            log.verbose("guard: \(path) is gone; nothing to quarantine")
            return
        }
        guard GuardPolicy.mayRewrite(modified: seconds(identity.modified), agentStart: startTime,
                                     ownedByUser: identity.owner == getuid(), isOwnRewrite: false) else {
            log.warning("guard: left \(path) alone: written before the agent started or not this user's")
            return
        }
        let name = path.lastComponent.lossyText
        let pathExtension = name.contains(".") ? String(name.split(separator: ".").last ?? "").lowercased() : ""
        let entry: QuarantineEntry
        do throws(QuarantineError) {
            entry = try quarantine.store(read.bytes, id: "\(event.id)-\(index)", originalPath: path.bytes,
                                         pathExtension: pathExtension, reason: reason, time: now())
        } catch {
            log.error("guard: could not quarantine \(path) (it still holds the original): \(error.description)")
            event.guardOutcome.file = "failed"
            return
        }
        do throws(RewriteError) {
            let bytes = try encodeLike(path, original: read.bytes, redactedFallback(of: event))
            var rewrite = FileRewrite(path: path, original: identity)
            try rewrite.prepare(bytes)
            try rewrite.commit()
            rememberOwnWrite(path, bytes: bytes)
            thumbnails.remove(forPath: path.bytes)
            event.guardOutcome.file = "quarantined"
            event.guardOutcome.quarantine = entry.id
            log.warning("guard: \(path) \(reason): its original is in quarantine as \(entry.id) "
                + "('shotguard quarantine restore \(entry.id)'), and the redacted fallback took its place")
        } catch {
            // The original stays where it was; its copy in quarantine is not needed.
            quarantine.remove(entry)
            log.error("guard: could not replace \(path) with the redacted fallback: \(error.description)")
            event.guardOutcome.file = "failed"
        }
    }

    /// The event-time grab of the fallback rectangle, with the event-time rules applied.
    func redactedFallback(of event: CaptureEvent) -> PixelBuffer {
        var image = event.eventTime.root.cropped(to: event.fallbackRect)
        image.hasAlpha = false
        if let regions { image.redact(regions.hits(against: event.eventTime.context), origin: event.fallbackRect) }
        return image
    }

    /// The image encoded in the format of `path`'s original.
    private func encodeLike(_ path: BytePath, original: [UInt8], _ image: PixelBuffer) throws(RewriteError) -> [UInt8] {
        do throws(ImagingError) {
            // The original's format (and JPEG quality); PNG where it cannot be told.
            let encoding = ImageEncoding.matching(original: original) ?? .png(.fast)
            return try ImageCodec.encode(image, as: encoding, destination: path.description)
        } catch {
            throw RewriteError(kind: .io, description: error.description)
        }
    }

    /// Guard's own rename shows up as a new file: recognise it by identity and by content.
    private func rememberOwnWrite(_ path: BytePath, bytes: [UInt8]) {
        ownOutputs.insert("bytes:" + fnv1a(bytes), now: monotonicNow())
        if let written = FileIdentity.of(path: path) {
            ownRewrites[Self.fileKey(written)] = monotonicNow()
        }
        let current = monotonicNow()
        ownRewrites = ownRewrites.filter { current - $0.value < 60 }
    }
}

extension Agent {
    /// The clipboard holds an original guard has seen before (a retake, or the same screenshot
    /// as a file just handled). Under guard a retake is taken over again, up to the limit; false
    /// when the agent gives up on it (logged once).
    func mayGuardAgain(_ key: String, owner: String) -> Bool {
        guard options.guarding, clipboardGuardian != nil else { return true }
        let count = clipboardRetakes.record(key, now: monotonicNow())
        if count <= ClipboardRetakes.limit {
            log.warning("guard: \(owner) put an image guard has seen back on the clipboard; guarding it again "
                + "(\(count) of \(ClipboardRetakes.limit) within \(Int(ClipboardRetakes.window)) s)")
            return true
        }
        if count == ClipboardRetakes.limit + 1 {
            log.error("guard: \(owner) keeps putting the same image back on the clipboard; gave up after "
                + "\(ClipboardRetakes.limit) takeovers: the clipboard holds it unredacted")
        }
        return false
    }

    /// At exit: a clipboard manager keeps the redacted image the agent serves (SAVE_TARGETS),
    /// so that it outlives the agent instead of the clipboard going empty.
    func handOffClipboard() {
        guard let takeover = clipboardGuardian as? ClipboardTakeover, takeover.server.state == .serving,
              !display.isLost, let manager = takeover.server.clipboardManager else { return }
        if takeover.server.handOffAndWait() {
            log.info("guard: handed the redacted clipboard image to the clipboard manager (\(hexID(manager)))")
        } else {
            log.warning("guard: the clipboard manager (\(hexID(manager))) did not take the redacted image; "
                + "the clipboard empties as the agent exits")
        }
    }
}
