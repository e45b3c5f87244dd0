// After a failed clipboard read, a short wait for the next owner before the failure is reported.

/// GTK tools that copy and exit (gnome-screenshot -c, xfce4-screenshooter -c) hand their image
/// to a clipboard manager as they go: a read that races the hand-off is refused, and the image
/// then appears under the manager's ownership. So a failed read is held for `window` seconds,
/// during which new owners are read; it is reported only when none of them delivers an image,
/// or after `maximumRereads` further owners (a clipboard that keeps changing is not a hand-off).
struct ClipboardRetry {
    static let window = 2.0
    static let maximumRereads = 3

    private(set) var reason: String
    let deadline: Double
    private(set) var rereads = 0

    init(reason: String, now: Double) {
        self.reason = reason
        deadline = now + Self.window
    }

    /// A new owner is being read.
    mutating func reread() { rereads += 1 }

    /// Another read failed at `now`: true when the failure is to be reported now (the time or
    /// the re-reads are used up), false to keep waiting for a new owner.
    mutating func failedAgain(_ reason: String, now: Double) -> Bool {
        self.reason = reason
        return rereads >= Self.maximumRereads || now >= deadline
    }
}
