// Reads an image from the CLIPBOARD selection, including the INCR protocol for large ones.
import CX11

/// One transfer from the clipboard's owner: TARGETS first, then the best image target offered.
/// Driven by the X events the agent's loop hands to `DesktopEvents`; never blocks.
final class ClipboardFetch {
    enum Step { case targets, data, incremental }

    let owner: Window
    let timestamp: Time
    private(set) var step = Step.targets
    /// The image target asked for, once TARGETS was read (0 before).
    private(set) var target: Atom = 0
    /// The names of the image targets the owner offered (of those the agent reads).
    private(set) var offered: [String] = []
    private(set) var deadline: Double
    private var received = IncrementalData(limit: ClipboardFetch.maximumSize)

    static let timeout = 2.0
    static let maximumSize = 64 * 1024 * 1024

    init(owner: Window, timestamp: Time, now: Double) {
        self.owner = owner
        self.timestamp = timestamp
        deadline = now + Self.timeout
    }

    func progressed(now: Double, to step: Step? = nil) {
        deadline = now + Self.timeout
        if let step { self.step = step }
    }

    /// TARGETS was read: `target` is asked for next.
    func chose(_ target: Atom, offered: [String], now: Double) {
        self.target = target
        self.offered = offered
        progressed(now: now, to: .data)
    }

    /// Takes the next INCR chunk (see `IncrementalData.add`).
    func add(_ chunk: [UInt8]) -> IncrementalData.Progress { received.add(chunk) }

    var data: [UInt8] { received.data }
}

extension Display {
    /// A whole property of `window` (read in pieces), deleting it afterwards; nil when absent.
    /// Stops reading past `limit` bytes (the caller sees more than `limit` and refuses it).
    func takeProperty(_ property: Atom, of window: Window, limit: Int = ClipboardFetch.maximumSize)
        -> (type: Atom, format: Int32, bytes: [UInt8])? {
        var bytes: [UInt8] = []
        var first: PropertyChunk?
        while let chunk = propertyChunk(property, of: window, offset: bytes.count / 4, length: 1 << 20) {
            first = first ?? chunk
            bytes += chunk.bytes
            if chunk.remaining == 0 || bytes.count > limit { break }
        }
        guard let first else { return nil }
        XDeleteProperty(handle, window, property)
        return (first.type, first.format, bytes)
    }
}
