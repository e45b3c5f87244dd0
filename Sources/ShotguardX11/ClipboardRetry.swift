// After a failed clipboard read, a short wait for the image: from a new owner, or from the same one once it has it.
import CX11

/// GTK tools that copy and exit (gnome-screenshot -c, xfce4-screenshooter -c, mate-screenshot -c)
/// hand their image to a clipboard manager as they go (SAVE_TARGETS). Two races follow:
/// - a read of the tool is answered after the manager took CLIPBOARD, or refused: the image then
///   appears under the manager's ownership, so new owners are read while the failure is held;
/// - the manager (xfsettingsd, and the managers written from the same code) takes CLIPBOARD as
///   soon as the tool has answered its MULTIPLE request, while the large targets still come by
///   INCR, and refuses them until they are in. It lists them in TARGETS all along. So the owner
///   that refused is asked once more when the owner it took over from goes away (the tool exits
///   once the manager confirmed the save, which it does when every target is in), and once more
///   when the wait is over.
///
/// A failure is held for `window` seconds and reported when neither brings an image, or after
/// `maximumRereads` further owners (a clipboard that keeps changing is not a hand-off). Each
/// owner is asked again at most twice: no polling.
struct ClipboardRetry {
    static let window = 2.0
    static let maximumRereads = 3

    private(set) var reason: String
    let deadline: Double
    private(set) var rereads = 0
    /// The owner whose read was refused while it owned CLIPBOARD, with its selection time and
    /// the owner it took over from: the one asked again. Nil once another owner took CLIPBOARD.
    private(set) var refusing: Refusing?
    /// The owner `refusing` took over from, followed until it goes away (DestroyNotify), with
    /// the event mask this connection had on it before, to restore.
    private(set) var departing: (window: Window, mask: Int)?
    /// Whether the refusing owner was asked again when its predecessor went, and at the deadline.
    private(set) var askedOnDeparture = false
    private(set) var askedAtDeadline = false

    /// An owner to ask again, as its read began.
    struct Refusing {
        let owner: Window
        let timestamp: Time
        let handedOverBy: Window?
    }

    init(reason: String, now: Double) {
        self.reason = reason
        deadline = now + Self.window
    }

    /// A new owner is being read: the one that refused is no longer asked again.
    mutating func reread() {
        rereads += 1
        refusing = nil
    }

    /// The read of `owner` (CLIPBOARD's owner since `timestamp`) was refused: it is asked again
    /// later. Refusals, and a stall of a manager that took the image over: an image over the size
    /// bound or another stalled owner is not asked again.
    mutating func refused(by owner: Window, timestamp: Time, handedOverBy: Window?) {
        refusing = Refusing(owner: owner, timestamp: timestamp, handedOverBy: handedOverBy)
    }

    /// Another read failed at `now`: true when the failure is to be reported now (the time or
    /// the re-reads are used up), false to keep waiting.
    mutating func failedAgain(_ reason: String, now: Double) -> Bool {
        self.reason = reason
        return rereads >= Self.maximumRereads || now >= deadline
    }

    mutating func follow(_ window: Window, mask: Int) { departing = (window, mask) }

    /// Stops following the departing owner; what was followed, for its mask to be restored.
    mutating func stopFollowing() -> (window: Window, mask: Int)? {
        defer { departing = nil }
        return departing
    }

    /// The owner to ask again now that its predecessor went away, once; nil when there is none.
    mutating func askOnDeparture() -> Refusing? {
        guard !askedOnDeparture, let refusing else { return nil }
        askedOnDeparture = true
        return refusing
    }

    /// The owner to ask a last time as the wait ends, once; nil when there is none.
    mutating func askAtDeadline() -> Refusing? {
        guard !askedAtDeadline, let refusing else { return nil }
        askedAtDeadline = true
        return refusing
    }
}

extension DesktopEvents {
    /// Follows `previous`, the owner a refusing owner took CLIPBOARD from, until it goes away:
    /// StructureNotifyMask added to what this connection selects on it. When it is gone already,
    /// the refusing owner is asked again at once.
    func followDeparture(of previous: Window, now: Double) -> [DesktopSignal] {
        guard var held = retry, held.departing == nil, !held.askedOnDeparture else { return [] }
        var attributes = XWindowAttributes()
        let (status, error) = display.trap { XGetWindowAttributes(display.handle, previous, &attributes) }
        guard status != 0, error == nil else { return departed(previous, force: true, now: now) }
        // Gone between the two requests: its DestroyNotify will never come.
        let (_, selectError) = display.trap { XSelectInput(display.handle, previous, attributes.your_event_mask | StructureNotifyMask) }
        guard selectError == nil else { return departed(previous, force: true, now: now) }
        held.follow(previous, mask: attributes.your_event_mask)
        retry = held
        return []
    }

    /// A window was destroyed: when it is the owner a refusing owner took over from, that owner
    /// has been given everything it will get, and is asked again.
    func departed(_ window: Window, force: Bool = false, now: Double) -> [DesktopSignal] {
        guard var held = retry, force || held.departing?.window == window else { return [] }
        _ = held.stopFollowing()
        let again = fetch == nil ? held.askOnDeparture() : nil
        retry = held
        if let again { startFetch(owner: again.owner, timestamp: again.timestamp, handedOverBy: again.handedOverBy, now: now) }
        return []
    }

    /// The wait is over: the refusing owner is asked a last time, or the failure is reported.
    func retryExpired(now: Double) -> [DesktopSignal] {
        guard var held = retry else { return [] }
        if let again = held.askAtDeadline() {
            retry = held
            startFetch(owner: again.owner, timestamp: again.timestamp, handedOverBy: again.handedOverBy, now: now)
            return []
        }
        endRetry()
        return [.clipboardFailed(reason: held.reason)]
    }

    /// Drops the held failure, giving back the event mask of a window still followed.
    func endRetry() {
        if let followed = retry?.stopFollowing() {
            // Not trapped (no round trip): a window gone meanwhile makes an error no one reads.
            XSelectInput(display.handle, followed.window, followed.mask)
        }
        retry = nil
    }
}
