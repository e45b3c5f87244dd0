// Clipboard guard: takes CLIPBOARD over from a screenshot's owner and serves the redacted image — or everything back, byte for byte.
import ShotguardBase
import ShotguardImaging
import ShotguardX11

/// How a clipboard image relates to what guard replaced before.
enum ClipboardArrival: Equatable, Sendable {
    /// A new copy (a new owner, or an image guard has not replaced).
    case fresh
    /// The owner whose image guard replaced put the same image back: guarded again (`count` of
    /// `ClipboardRetakes.limit` within a minute).
    case retake(count: Int)
    /// It keeps putting it back: guard now serves nothing rather than the original.
    case overLimit
}

/// What clipboard guard does, behind a narrow interface.
protocol ClipboardGuarding: AnyObject {
    /// Takes CLIPBOARD with the time the offer's owner took it, so that a newer copy is never
    /// replaced; requests wait until something is served. False when it was not taken (with
    /// why, for the log).
    func takeOver(from offer: ClipboardOffer) -> (taken: Bool, why: String)
    /// Whether guard owns CLIPBOARD and serves nothing yet.
    var isPending: Bool { get }
    /// Serves `image` (PNG, and every other image target the offer had) until another client
    /// takes CLIPBOARD. Takes it first when it does not own it yet. The keys of the served bytes
    /// come back so that they are never taken for a new screenshot.
    func serve(_ image: PixelBuffer, for offer: ClipboardOffer) -> (served: Bool, ownKeys: [String], why: String)
    /// Serves back every target the offer's owner offered, byte for byte (an image that turned
    /// out not to be a screenshot, after guard had already taken the clipboard).
    func serveBack(_ offer: ClipboardOffer)
    /// Serves nothing: pastes get nothing rather than an image that could not be made safe.
    func withhold(reason: String)
    /// Sorts a new clipboard image: fresh, a retake (guarded again), or over the limit.
    func arrival(of offer: ClipboardOffer, at now: Moment) -> ClipboardArrival
    /// Notes that guard replaced the offer's image (a later return of it is a retake).
    func replaced(_ offer: ClipboardOffer, at now: Moment)
}

/// Clipboard guard on the X11 layer's clipboard server.
final class ClipboardGuard: ClipboardGuarding {
    let server: ClipboardServer
    private let log: Log
    private var retakes = ClipboardRetakes()
    /// The originals guard replaced, by owner window and image key.
    private var replacedOriginals: [String: Double] = [:]

    init(server: ClipboardServer, log: Log) {
        self.server = server
        self.log = log
    }

    func takeOver(from offer: ClipboardOffer) -> (taken: Bool, why: String) {
        do throws(X11Error) {
            try server.takeOwnership(at: offer.owner.selectionTime == 0 ? nil : offer.owner.selectionTime, now: monotonicNow())
            return (true, "")
        } catch {
            return (false, error.message)
        }
    }

    var isPending: Bool { server.state == .pending }

    func serve(_ image: PixelBuffer, for offer: ClipboardOffer) -> (served: Bool, ownKeys: [String], why: String) {
        let images: [(target: String, bytes: [UInt8])]
        do throws(ImagingError) {
            let encoded = try ClipboardImages.encodeAll(image, offered: offer.imageTargets, original: offer.image)
            for target in encoded.skipped { log.warning("guard: the clipboard will not offer \(target)") }
            images = encoded.images
        } catch {
            // Fail closed: nothing is served rather than the original.
            withhold(reason: "the redacted image could not be encoded")
            return (false, [], "cannot encode the clipboard image: \(error.description); the clipboard is left empty")
        }
        if !isPending {
            let taken = takeOver(from: offer)
            guard taken.taken else { return (false, [], taken.why) }
        }
        server.provide(images, now: monotonicNow())
        return (true, images.map { "bytes:" + fnv1a($0.bytes) }, "")
    }

    func serveBack(_ offer: ClipboardOffer) {
        guard server.ownsClipboard else { return }
        let targets = offer.targets.isEmpty ? [ServedTarget(name: offer.imageTargets.first ?? "image/png", bytes: offer.image)]
            : offer.targets
        server.provide(targets: targets, now: monotonicNow())
    }

    func withhold(reason: String) {
        if !server.ownsClipboard {
            do throws(X11Error) {
                try server.takeOwnership(now: monotonicNow())
            } catch {
                log.error("guard: cannot take the clipboard to empty it: \(error.message)")
                return
            }
        }
        // Owned, with nothing offered: every request for data is refused.
        server.provide(targets: [], now: monotonicNow())
        log.warning("guard: the clipboard offers nothing now: \(reason)")
        log.events.say("clipboard-withheld")
    }

    func arrival(of offer: ClipboardOffer, at now: Moment) -> ClipboardArrival {
        replacedOriginals = replacedOriginals.filter { now.monotonic - $0.value < ClipboardRetakes.window }
        guard replacedOriginals[Self.key(offer)] != nil else { return .fresh }
        let count = retakes.record(Self.key(offer), now: now.monotonic)
        return count <= ClipboardRetakes.limit ? .retake(count: count) : .overLimit
    }

    func replaced(_ offer: ClipboardOffer, at now: Moment) {
        replacedOriginals[Self.key(offer)] = now.monotonic
    }

    /// The same image from the same owner: its window and its process (the X server gives a
    /// new client the window ids of one that closed, so a new xclip can have the old one's).
    private static func key(_ offer: ClipboardOffer) -> String {
        "\(offer.owner.process?.pid ?? 0):\(offer.owner.window):\(offer.image.count):\(fnv1a(offer.image))"
    }

    /// Logs what happened to the served image since the last call (called every loop turn).
    func logEvents() {
        for event in server.takeEvents() {
            switch event {
            case .lost(let owner):
                log.verbose("guard: another client took the clipboard (\(owner.map { hexID($0) } ?? "none"))")
            case .served(let target, let requestor, let bytes, let incremental):
                log.verbose("guard: served \(target) (\(bytes) bytes\(incremental ? ", INCR" : "")) to \(hexID(requestor))")
            case .refused(let target, let requestor, let reason):
                log.verbose("guard: refused \(target) to \(hexID(requestor)): \(reason)")
            case .transferAbandoned(let requestor):
                log.verbose("guard: abandoned an INCR transfer to \(hexID(requestor)): it made no progress")
            case .handedOff(let manager, let saved):
                log.verbose("guard: the clipboard manager \(hexID(manager)) \(saved ? "saved" : "did not save") the image")
            }
        }
    }

    /// At exit: a clipboard manager keeps the redacted image the agent serves (SAVE_TARGETS),
    /// so that it outlives the agent instead of the clipboard going empty. Then every request
    /// that reached the agent is answered and CLIPBOARD given up (`finishAtExit`).
    func handOff(displayLost: Bool) {
        guard !displayLost else { return }
        defer { server.finishAtExit() }
        guard server.state == .serving else { return }
        guard let manager = server.clipboardManager else {
            // Not a leak: the redacted image goes, and a history (Parcellite) may put back its last text.
            log.info("guard: no clipboard manager keeps the redacted image: the clipboard empties as the agent exits "
                + "(a clipboard history may put back what it kept before)")
            log.events.say("clipboard-handoff", [("manager", .null), ("saved", .bool(false))])
            return
        }
        let saved = server.handOffAndWait()
        log.events.say("clipboard-handoff", [("manager", .string(hexID(manager))), ("saved", .bool(saved))])
        if saved {
            log.info("guard: handed the redacted clipboard image to the clipboard manager (\(hexID(manager)))")
        } else {
            log.warning("guard: the clipboard manager (\(hexID(manager))) did not take the redacted image; "
                + "the clipboard empties as the agent exits")
        }
    }
}
