// The process of a clipboard owner that handed its offer to a clipboard manager, found while it still ran.

/// A GTK tool that copies and exits (gnome-screenshot -c) hands its image to a clipboard manager,
/// and the image is then read from the manager: a process that says nothing about screenshots.
/// The tool is still there when the manager takes CLIPBOARD (it waits for the manager to confirm
/// the save), so its process is found then, and the image the manager serves is tied to it.
/// Only the last hand-off is kept, and only for `horizon` seconds.
struct ClipboardHandOffs {
    /// Longer than a read can take: the held refusal (2 s), a last ask, and its transfer.
    static let horizon = 10.0

    private var last: (from: UInt, process: ProcessIdentity, at: Double)?

    /// `from` handed CLIPBOARD over; `process` is what was found of it (nil: nothing is kept).
    mutating func note(from: UInt, process: ProcessIdentity?, at now: Double) {
        last = process.map { (from, $0, now) }
    }

    /// The process of the owner a read's image was handed over by (`ClipboardRead.handedOverBy`),
    /// when it was found in time.
    func process(handedOverBy from: UInt?, at now: Double) -> ProcessIdentity? {
        guard let last, let from, from == last.from, now - last.at <= Self.horizon else { return nil }
        return last.process
    }
}
