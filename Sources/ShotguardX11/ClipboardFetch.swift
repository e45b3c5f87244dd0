// Reads a clipboard owner's offer: TARGETS, the best image, then every other target (INCR included).
import CX11

/// What a clipboard owner offered, as read: the image, and every other target with its type and
/// format, so that an image found not to be a screenshot can be served back byte for byte.
public struct ClipboardRead: Sendable {
    /// The bytes of the best image target offered (PNG before JPEG before WebP).
    public let image: [UInt8]
    /// The image targets offered (of those the agent reads), the one read first.
    public let imageTargets: [String]
    /// Every target read, the image first, with the type and format it came in.
    public let targets: [ServedTarget]
    /// Whether every target offered was read (none refused, stalled, or over the bounds).
    public let complete: Bool
    /// The owner's window, and a description (its class and id).
    public let owner: UInt
    public let ownerDescription: String
    /// The server time at which the owner took CLIPBOARD (from the XFixes notification).
    public let selectionTime: UInt
    /// Whether the image came in INCR chunks.
    public let incremental: Bool
    /// The owner whose offer this owner took over while it was being read: a clipboard manager
    /// that saved a tool's image as the tool exited (ClipboardManager spec, SAVE_TARGETS). Nil
    /// when the owner took CLIPBOARD on its own.
    public let handedOverBy: UInt?
}

/// One transfer from the clipboard's owner: TARGETS first, then the best image target, then
/// each other target in turn. Driven by the X events the agent's loop hands to
/// `DesktopEvents`; never blocks.
final class ClipboardFetch {
    enum Step: Equatable { case targets, data, incremental }

    let owner: Window
    let timestamp: Time
    /// The property of the agent's window this read's data arrives in (see `DesktopEvents.dataProperties`).
    let property: Atom
    /// The owner whose offer was being read when this owner took CLIPBOARD (a hand-off).
    let handedOverBy: Window?
    private(set) var step = Step.targets
    /// The target being read now (0 while TARGETS is read).
    private(set) var target: Atom = 0
    /// The targets still to read after this one, with their names.
    private var queue: [(atom: Atom, name: String)] = []
    private var current: (atom: Atom, name: String)?
    /// The names of the image targets the owner offered (of those the agent reads).
    private(set) var offered: [String] = []
    private(set) var read: [ServedTarget] = []
    private(set) var skipped = 0
    private(set) var imageCameIncrementally = false
    private(set) var deadline: Double
    private var received = IncrementalData(limit: ClipboardFetch.maximumSize)
    private var totalBytes = 0

    static let timeout = 2.0
    /// The largest image read.
    static let maximumSize = 64 * 1024 * 1024
    /// Bounds on the other targets: how many are read, and how many bytes in all.
    static let maximumTargets = 24
    static let maximumOtherBytes = 16 * 1024 * 1024
    /// Targets that are requests or questions, not data: never read.
    static let pseudoTargets: Set<String> = ["TARGETS", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS", "DELETE", "INSERT_SELECTION",
                                             "INSERT_PROPERTY", "LENGTH", "HOST_NAME", "USER", "CLIENT_WINDOW", "PROCESS",
                                             "TASK", "CLASS", "NAME", "OWNER_OS", "LIST_LENGTH"]

    init(owner: Window, timestamp: Time, property: Atom, handedOverBy: Window?, now: Double) {
        self.owner = owner
        self.timestamp = timestamp
        self.property = property
        self.handedOverBy = handedOverBy
        deadline = now + Self.timeout
    }

    func progressed(now: Double, to step: Step? = nil) {
        deadline = now + Self.timeout
        if let step { self.step = step }
    }

    /// TARGETS was read: the image target comes first, then the others (bounded).
    func chose(_ image: (atom: Atom, name: String), offered: [String], others: [(atom: Atom, name: String)], now: Double) {
        self.offered = offered
        let kept = others.filter { !Self.pseudoTargets.contains($0.name) && $0.atom != image.atom }
        queue = Array(kept.prefix(Self.maximumTargets - 1))
        skipped = kept.count - queue.count
        start(image, now: now)
    }

    private func start(_ next: (atom: Atom, name: String), now: Double) {
        current = next
        target = next.atom
        received = IncrementalData(limit: read.isEmpty ? Self.maximumSize : max(0, Self.maximumOtherBytes - totalBytes))
        progressed(now: now, to: .data)
    }

    /// Whether the image (the first target) is being read.
    var readingImage: Bool { read.isEmpty }

    /// The target being read arrived whole (`type` and `format` as the owner answered);
    /// returns the next target to ask for, or nil when the offer has been read.
    func finished(_ bytes: [UInt8], type: String, format: Int32, now: Double) -> (atom: Atom, name: String)? {
        if let current {
            if read.isEmpty, step == .incremental { imageCameIncrementally = true }
            if read.isEmpty || totalBytes + bytes.count <= Self.maximumOtherBytes {
                read.append(ServedTarget(name: current.name, type: type, format: format, bytes: bytes))
                if read.count > 1 { totalBytes += bytes.count }
            } else {
                skipped += 1
            }
        }
        return advance(now: now)
    }

    /// The target being read was refused or failed: skipped (never the image: that fails the read).
    func skip(now: Double) -> (atom: Atom, name: String)? {
        skipped += 1
        return advance(now: now)
    }

    private func advance(now: Double) -> (atom: Atom, name: String)? {
        guard !queue.isEmpty else {
            current = nil
            return nil
        }
        let next = queue.removeFirst()
        start(next, now: now)
        return next
    }

    /// The INCR data of the target being read.
    var incrementalData: [UInt8] { received.data }

    /// Takes the next INCR chunk (see `IncrementalData.add`).
    func add(_ chunk: [UInt8]) -> IncrementalData.Progress { received.add(chunk) }

    /// What was read, once the image is in.
    func result(ownerDescription: String) -> ClipboardRead? {
        guard let image = read.first else { return nil }
        return ClipboardRead(image: image.bytes, imageTargets: offered, targets: read, complete: skipped == 0 && current == nil,
                             owner: UInt(owner), ownerDescription: ownerDescription, selectionTime: UInt(timestamp),
                             incremental: imageCameIncrementally, handedOverBy: handedOverBy.map { UInt($0) })
    }
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

    /// The names of `atoms`, in one round trip; nil for an atom the server does not know.
    func atomNames(_ atoms: [Atom]) -> [String?] {
        guard !atoms.isEmpty else { return [] }
        var list = atoms
        var names = [UnsafeMutablePointer<CChar>?](repeating: nil, count: atoms.count)
        let (status, _) = trap { XGetAtomNames(handle, &list, Int32(list.count), &names) }
        defer { for name in names { if let name { XFree(name) } } }
        guard status != 0 else { return atoms.map { _ in nil } }
        return names.map { $0.map { String(cString: $0) } }
    }
}
