// Examining one candidate as soon as it arrives: read, decode, place, redact, and guard it.
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardX11

extension Agent {
    /// Largest screenshot file read.
    static let maximumFileSize = 64 * 1024 * 1024

    /// Examines the oldest waiting candidate of `event`. A file that rules hit is rewritten
    /// now, not when the event settles: the user may open or send it any moment.
    func examineNext(in event: CaptureEvent) {
        let candidate = event.pending.removeFirst()
        let name = candidate.path?.description ?? "the clipboard image"
        let read: (bytes: [UInt8], identity: FileIdentity?)
        switch readCandidate(candidate) {
        case .success(let value): read = value
        case .failure(let reason):
            recordUnplaced(candidate, reason: "could not be read: \(reason)", in: event)
            return
        }
        if ownOutputs.contains("bytes:" + fnv1a(read.bytes), now: monotonicNow()) {
            log.verbose("ignored \(name): guard's own redacted image")
            return
        }
        let image: PixelBuffer
        let decoded: DecodedImage
        let decodeStart = monotonicNow()
        do throws(ImagingError) {
            decoded = try ImageCodec.decode(read.bytes, source: name)
            image = decoded.image
        } catch {
            recordUnplaced(candidate, reason: "could not be decoded: \(error.message)", in: event)
            return
        }
        // The same pixels again: on the clipboard, the screenshot whose file was just handled
        // (or the reverse); as a file, the same file closed twice. Two files of an unchanged
        // screen are two screenshots.
        let fingerprint = "pixels:" + pixelFingerprint(image)
        let ownKey = fingerprint + ":" + (candidate.path.map { String(decoding: $0.bytes, as: UTF8.self) } ?? "clipboard")
        let isRepeat = seen.contains(ownKey, now: monotonicNow())
            || (candidate.source == .clipboard && seen.contains(fingerprint, now: monotonicNow()))
        seen.insert(fingerprint, now: monotonicNow())
        seen.insert(ownKey, now: monotonicNow())

        let placeStart = monotonicNow()
        let placement = place(decoded, candidate: candidate, in: event)
        let timing = "decoded in \(milliseconds(placeStart - decodeStart)), placed in \(milliseconds(monotonicNow() - placeStart))"
        guard let (alignment, snapshot) = placement else {
            let reason = "was not found on the screen as it was at \(Log.iso8601(event.wallStart))"
            recordUnplaced(candidate, reason: reason, in: event)
            return
        }
        var notes: [String] = []
        var hits = regions?.hits(against: snapshot.context) ?? []
        if !alignment.verified, let regions, !display.isLost {
            // Not quite the screen at the event: it may show the windows as they are now.
            hits += regions.hits(against: screenContext())
            notes.append("the image differs from the screen at the event; rules were applied for the windows then and now")
        }
        if !alignment.verified, !alignment.differenceIsCovered(by: hits.map(\.rect)) {
            // It shows something the screen did not, where no rule covers it: never pass it as placed.
            recordUnplaced(candidate, reason: "differs from the screen at \(Log.iso8601(event.wallStart)) where no rule covers it",
                           in: event)
            return
        }
        var redacted = image
        redacted.hasAlpha = false
        let placedHits = redacted.redact(hits, origin: alignment.rect)
        let action = GuardPolicy.action(for: .placed(verified: alignment.verified), hitsInImage: placedHits.count,
                                        isWeak: candidate.isWeak, rulesHitAtEvent: !hits.isEmpty, isBurst: event.isBurst)
        log.verbose("placed \(name) by \(alignment.method.rawValue) at \(alignment.rect) (\(timing)): \(placedHits.count) rectangles")
        if options.guarding {
            guardPlaced(candidate, action: action, original: read, redacted: redacted, hitCount: placedHits.count, in: event)
        }
        if isRepeat {
            log.verbose("\(name) shows a screenshot already handled: no second report")
            event.repeats += 1
        } else if event.placed == nil || (event.placed!.candidate.isWeak && !candidate.isWeak) {
            event.placed = PlacedImage(candidate: candidate, image: redacted, alignment: alignment, redactions: placedHits,
                                       notes: notes)
        }
    }

    private func milliseconds(_ seconds: Double) -> String { String(format1: seconds * 1000) + " ms" }

    /// Tries the event's screens, the event-time one first, then the fresher ones: the first
    /// screen the image matches exactly (verified) wins; failing that, the first it was found
    /// on with differences. A tool that showed its window and captured when it went matches
    /// only the screen after its window closed, not the event-time one that shows the window.
    private func place(_ decoded: DecodedImage, candidate: Candidate, in event: CaptureEvent) -> (Alignment, Snapshot)? {
        Aligner.alignOnBest(decoded.image, screens: event.snapshots.map { ($0.root, $0.context) }, verify: candidate.isWeak,
                            tolerance: .forImage(decoded)).map { ($0.alignment, event.snapshots[$0.screen]) }
    }

    func recordUnplaced(_ candidate: Candidate, reason: String, in event: CaptureEvent) {
        let name = candidate.path?.description ?? "the clipboard image"
        if candidate.isWeak {
            log.verbose("ignored \(name): \(reason)")
            event.weakUnplaced += 1
            return
        }
        event.unplaced.append((candidate, reason))
        // The clipboard cannot wait for the event to settle: someone may be pasting now.
        if candidate.source == .clipboard, options.guarding { guardUnplacedClipboard(candidate, in: event) }
    }

    /// The file's bytes and identity (read through the descriptor that was checked), or the
    /// clipboard's bytes.
    func readCandidate(_ candidate: Candidate) -> Result<(bytes: [UInt8], identity: FileIdentity?), ReadFailure> {
        guard let path = candidate.path else { return .success((candidate.bytes ?? [], nil)) }
        let fd = path.withCString { open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return .failure(ReadFailure(errnoText())) }
        defer { close(fd) }
        guard let identity = FileIdentity.of(fd: fd), identity.mode & S_IFMT == S_IFREG else {
            return .failure(ReadFailure("not a regular file"))
        }
        do throws(FileError) {
            let bytes = try FileIO.read(fd: fd, name: path.description, limit: Self.maximumFileSize)
            return .success((bytes, identity))
        } catch {
            return .failure(ReadFailure(error.message))
        }
    }

    struct ReadFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
