// Serves an image on CLIPBOARD (the guard's takeover): ownership, queued requests, loss.
import CX11

/// What the clipboard server has to tell the agent; read with `ClipboardServer.takeEvents()`.
public enum ClipboardServerEvent: Equatable, Sendable {
    /// Another client took CLIPBOARD (`newOwner` is its window, nil when there is none now).
    case lost(newOwner: UInt?)
    /// A requestor got `target` (`bytes` long, by INCR when `incremental`).
    case served(target: String, requestor: UInt, bytes: Int, incremental: Bool)
    /// A request was refused: an unknown target, or no image when the pending time ran out.
    case refused(target: String, requestor: UInt, reason: String)
    /// An INCR transfer made no progress for `ClipboardServer.transferTimeout` seconds.
    case transferAbandoned(requestor: UInt)
    /// The clipboard manager answered the hand-off: it stored the image (`saved`), or refused.
    case handedOff(manager: UInt, saved: Bool)
}

/// One target served on CLIPBOARD: its name, the property type and format it is answered
/// with, and its data as the X server carries it (format 32: 32-bit little-endian values).
public struct ServedTarget: Equatable, Sendable {
    public var name: String
    public var type: String
    public var format: Int32
    public var bytes: [UInt8]

    public init(name: String, type: String? = nil, format: Int32 = 8, bytes: [UInt8]) {
        self.name = name
        self.type = type ?? name
        self.format = format
        self.bytes = bytes
    }
}

/// Owns CLIPBOARD and answers requests for an image, on the window of `DesktopEvents` (so the
/// XFixes notification of its own ownership is ignored there). Never blocks on another client:
/// `DesktopEvents.process` hands it the X events that concern it, and `expire` runs its timers.
///
/// Ownership can be taken before the image exists (`takeOwnership`): requests that arrive then
/// are queued and answered by `provide`, or refused after `pendingTimeout`.
public final class ClipboardServer {
    /// Where the server is: not owning, owning without an image yet, or serving one.
    public enum State: Equatable, Sendable { case idle, pending, serving }

    let display: Display
    let window: Window
    let clipboard, targets, timestamp, multiple, saveTargets, incr, atomPair, manager: Atom
    let timestampProperty, saveProperty: Atom
    public private(set) var state = State.idle
    /// The server time at which ownership was taken; requests from before it are refused.
    public private(set) var ownedSince: Time = 0
    /// What is served by target atom, in the order TARGETS lists them, once provided.
    var offers: [Offer] = []

    /// One provided target, its atoms interned.
    struct Offer {
        let target: Atom
        let type: Atom
        let format: Int32
        let bytes: [UInt8]
    }
    var queued: [XSelectionRequestEvent] = []
    var pendingDeadline: Double?
    var transfers: [IncrementalTransfer.Key: IncrementalTransfer] = [:]
    /// The event mask this connection had on each requestor with INCR transfers under way.
    var requestorMasks: [Window: Int] = [:]
    /// The hand-off to the clipboard manager under way: when it began, and when it is given up.
    var handOff: (manager: Window, started: Double, deadline: Double)?
    var events: [ClipboardServerEvent] = []
    /// Data above this size goes by INCR; each INCR chunk is this size.
    let chunkSize: Int

    /// How long requests wait for `provide` before they are refused.
    public static let pendingTimeout = 3.0
    /// How long an INCR transfer may make no progress before it is abandoned.
    public static let transferTimeout = 10.0
    /// How long the clipboard manager may go without a request during a hand-off: each of its
    /// requests (and each INCR chunk it takes) extends the wait, so a manager slowed by a loaded
    /// machine is waited for while it works, and one that does nothing is not...
    public static let handOffTimeout = 3.0
    /// ...up to this long in all.
    public static let handOffLimit = 15.0
    /// The most INCR transfers under way at once (each holds only a reference to served bytes).
    static let maximumTransfers = 64

    init(display: Display, window: Window) {
        self.display = display
        self.window = window
        clipboard = display.atom("CLIPBOARD")
        targets = display.atom("TARGETS")
        timestamp = display.atom("TIMESTAMP")
        multiple = display.atom("MULTIPLE")
        saveTargets = display.atom("SAVE_TARGETS")
        incr = display.atom("INCR")
        atomPair = display.atom("ATOM_PAIR")
        manager = display.atom("CLIPBOARD_MANAGER")
        timestampProperty = display.atom("SHOTGUARD_TIMESTAMP")
        saveProperty = display.atom("SHOTGUARD_SAVE")
        // The largest property one request can carry, less room for the request's header
        // (XExtendedMaxRequestSize is 0 without BIG-REQUESTS; both count 4-byte units).
        let extended = XExtendedMaxRequestSize(display.handle)
        let units = extended > 0 ? extended : XMaxRequestSize(display.handle)
        chunkSize = max(4096, min(256 * 1024, units * 4 - 100))
    }

    /// Takes CLIPBOARD now, before the image is ready: requests are queued until `provide`.
    /// With `at`, the ownership is requested with that server time — the time at which the
    /// owner whose image is being replaced took the clipboard — so that the server refuses it
    /// when a newer owner has taken CLIPBOARD since (a copy made a moment later is never
    /// replaced). Without it, a real server timestamp (from a zero-length property append on
    /// the server's own window), never CurrentTime. Confirmed with XGetSelectionOwner.
    public func takeOwnership(at ownerTime: UInt? = nil, now: Double) throws(X11Error) {
        let time: Time
        if let ownerTime { time = Time(ownerTime) } else { time = try serverTime() }
        XSetSelectionOwner(display.handle, clipboard, window, time)
        guard XGetSelectionOwner(display.handle, clipboard) == window else {
            if ownerTime != nil {
                throw X11Error(.clipboard, "did not take the clipboard: another client took it after the image was copied (a newer copy is never replaced)")
            }
            throw X11Error(.clipboard, "could not take the clipboard: another client took it at the same time (expected to own CLIPBOARD from server time \(time))")
        }
        ownedSince = time
        // Always a new image: what was served before belongs to an earlier screenshot (and may
        // be one that was left as it was), never to this one.
        offers = []
        state = .pending
        pendingDeadline = now + Self.pendingTimeout
    }

    /// Sets the image to serve, as `image/png`, plus other image targets (MIME name → bytes)
    /// the caller has encoded; answers the requests queued while ownership was pending.
    /// When ownership was taken but nothing needs redacting, provide the original bytes.
    public func provide(png bytes: [UInt8], others: [(target: String, bytes: [UInt8])] = [], now: Double) {
        provide([(target: "image/png", bytes: bytes)] + others, now: now)
    }

    /// Sets the image to serve under each target (MIME name → bytes, the preferred first);
    /// answers the requests queued while ownership was pending.
    public func provide(_ images: [(target: String, bytes: [UInt8])], now: Double) {
        provide(targets: images.map { ServedTarget(name: $0.target, bytes: $0.bytes) }, now: now)
    }

    /// Sets what to serve, target by target, each with its own type and format (what another
    /// owner offered, served back byte for byte); answers the requests queued while ownership
    /// was pending.
    public func provide(targets: [ServedTarget], now: Double) {
        offers = targets.map { Offer(target: display.atom($0.name), type: display.atom($0.type), format: $0.format, bytes: $0.bytes) }
        pendingDeadline = nil
        guard state != .idle else { return }
        state = .serving
        let waiting = queued
        queued = []
        for request in waiting { answer(request, now: now) }
        display.flush()
    }

    /// Gives CLIPBOARD up (fail closed: when the image cannot be made safe, nothing is served):
    /// queued requests are refused and the image is forgotten. INCR transfers under way finish.
    public func release(reason: String = "the clipboard server gave up its ownership", now: Double) {
        refuseQueued(reason: reason)
        if state != .idle, XGetSelectionOwner(display.handle, clipboard) == window {
            XSetSelectionOwner(display.handle, clipboard, 0, ownedSince)
        }
        state = .idle
        offers = []
        pendingDeadline = nil
        display.flush()
    }

    /// How many requests wait for `provide`.
    public var queuedRequests: Int { queued.count }

    /// Whether this server owns CLIPBOARD (pending or serving).
    public var ownsClipboard: Bool { state != .idle }

    /// Whether `bytes` is an image this server serves (a clipboard manager's copy of it is not
    /// a new screenshot).
    /// (The agent remembers what it served before, by content, for a clipboard manager that
    /// brings it back after this server lost CLIPBOARD.)
    public func isServing(_ bytes: [UInt8]) -> Bool { offers.contains { $0.bytes == bytes } }

    /// The next time `expire` has work: a pending timeout, a stalled transfer, a hand-off.
    public var deadline: Double? {
        ([pendingDeadline, handOff?.deadline] + transfers.values.map { Optional($0.deadline) }).compactMap { $0 }.min()
    }

    /// Refuses requests that waited too long for an image, abandons stalled INCR transfers and
    /// ends an unanswered hand-off.
    public func expire(now: Double) {
        if let pendingDeadline, now >= pendingDeadline {
            self.pendingDeadline = nil
            refuseQueued(reason: "no image was provided within \(Int(Self.pendingTimeout)) s")
        }
        for transfer in transfers.values where now >= transfer.deadline {
            finish(transfer)
            events.append(.transferAbandoned(requestor: UInt(transfer.key.requestor)))
        }
        if let handOff, now >= handOff.deadline {
            self.handOff = nil
            events.append(.handedOff(manager: UInt(handOff.manager), saved: false))
        }
        display.flush()
    }

    /// The events since the last call, oldest first.
    public func takeEvents() -> [ClipboardServerEvent] {
        defer { events = [] }
        return events
    }

    /// Handles `event` when it concerns the server; false when it is someone else's.
    func handle(_ event: inout XEvent, now: Double) -> Bool {
        switch event.type {
        case SelectionRequest where event.xselectionrequest.owner == window:
            request(event.xselectionrequest, now: now)
            return true
        case SelectionClear where event.xselectionclear.window == window:
            cleared(event.xselectionclear)
            return true
        case PropertyNotify where event.xproperty.window != window && requestorMasks[event.xproperty.window] != nil:
            propertyChanged(event.xproperty, now: now)
            return true
        case SelectionNotify where event.xselection.requestor == window && event.xselection.selection == manager:
            handOffAnswered(event.xselection)
            return true
        default:
            return false
        }
    }

    private func cleared(_ event: XSelectionClearEvent) {
        guard event.selection == clipboard, state != .idle else { return }
        // A clear from before the current ownership (we took it again since) is stale.
        if event.time != CurrentTime, event.time < ownedSince { return }
        refuseQueued(reason: "the clipboard was taken by another client")
        state = .idle
        offers = []
        pendingDeadline = nil
        let owner = XGetSelectionOwner(display.handle, clipboard)
        events.append(.lost(newOwner: owner == 0 ? nil : UInt(owner)))
    }

    func refuseQueued(reason: String) {
        let waiting = queued
        queued = []
        for request in waiting {
            notify(request, property: 0)
            events.append(.refused(target: name(of: request.target), requestor: UInt(request.requestor), reason: reason))
        }
    }

    /// The name of an atom, for events and messages.
    func name(of atom: Atom) -> String {
        guard atom != 0, let text = XGetAtomName(display.handle, atom) else { return "None" }
        defer { XFree(text) }
        return String(cString: text)
    }
}
