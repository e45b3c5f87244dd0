// Which clients the copy context records: new clients for a moment, and those that may share the screen.

/// Copies (`CopyArea`, `CopyPlane`, RENDER's `Composite`) are what every toolkit sends all the
/// time, so they are recorded only for the clients that may read the screen with them: each
/// new client for `probation` seconds after it connects (a browser opens a connection of its
/// own for each share, and copies the screen at once), and any client while it holds a shared
/// pixmap (libwebrtc copies the screen into one and reads the shared memory), a pixmap named
/// for another client's window, or copied the screen in the last `hold` seconds. The others are
/// unregistered from the copy context, so the server stops hooking their requests. Pure: the
/// source carries out the registrations it asks for.
struct CopyRecording {
    static let probation = 3.0
    static let hold = 10.0
    /// Clients followed at once at most; past it a client's copies are not recorded after its
    /// probation (a flood of clients cannot grow the table).
    static let capacity = 512
    /// Resources kept per client at most (shared pixmaps, named pixmaps).
    static let resourcesPerClient = 64

    /// The clients in the copy context, with the time until which they are needed there.
    private(set) var registered: [UInt32: Double] = [:]
    /// What keeps a client in the context whatever the time: its shared and named pixmaps.
    private var pinned: [UInt32: Set<UInt32>] = [:]
    /// The clients that copied the screen: never let go early for their own copies.
    private var copiedScreen: Set<UInt32> = []
    /// Copies of its own drawables by each client on probation.
    private var ownCopies: [UInt32: Int] = [:]
    /// A client on probation that copies its own drawables this often without copying the
    /// screen is let go at once: a program drawing thousands of copies a second in its first
    /// seconds (a benchmark, a game) would flood the recording with requests that read nothing.
    static let ownCopiesOnProbation = 256

    /// A client connected: the copy context records it from its first request (it records
    /// future clients), until its probation ends.
    mutating func started(_ client: UInt32, at now: Double) {
        guard registered.count < Self.capacity || registered[client] != nil else { return }
        registered[client] = now + Self.probation
    }

    /// `client` must stay recorded for `seconds` more; true when it is not recorded yet, and a
    /// registration must be sent.
    mutating func keep(_ client: UInt32, for seconds: Double = hold, at now: Double) -> Bool {
        copiedScreen.insert(client)
        ownCopies[client] = nil
        if let until = registered[client] {
            registered[client] = max(until, now + seconds)
            return false
        }
        guard registered.count < Self.capacity else { return false }
        registered[client] = now + seconds
        return true
    }

    /// `resource` keeps `client` recorded until `unpin`; true when a registration must be sent.
    mutating func pin(_ client: UInt32, _ resource: UInt32, at now: Double) -> Bool {
        let register = keep(client, for: 0, at: now)
        guard registered[client] != nil else { return false }
        var resources = pinned[client] ?? []
        if resources.count < Self.resourcesPerClient { resources.insert(resource) }
        pinned[client] = resources
        return register
    }

    mutating func unpin(_ client: UInt32, _ resource: UInt32) {
        guard var resources = pinned[client] else { return }
        resources.remove(resource)
        pinned[client] = resources.isEmpty ? nil : resources
    }

    /// `client` copied one of its own drawables (reading nothing of the screen): past
    /// `ownCopiesOnProbation` of them on probation, it is let go at the next `expired`. True
    /// when it just reached that count: the source lets it go at once, not at the end of the
    /// flood it is reading.
    @discardableResult
    mutating func copiedOwn(_ client: UInt32, at now: Double) -> Bool {
        guard let until = registered[client], pinned[client] == nil, !copiedScreen.contains(client) else { return false }
        let count = (ownCopies[client] ?? 0) + 1
        ownCopies[client] = count
        guard count == Self.ownCopiesOnProbation else { return false }
        registered[client] = min(until, now)
        return true
    }

    /// The client disconnected: the server forgot it, and so does this.
    mutating func ended(_ client: UInt32) {
        registered[client] = nil
        pinned[client] = nil
        copiedScreen.remove(client)
        ownCopies[client] = nil
    }

    /// The clients no longer needed at `now`, taken out: the source unregisters them.
    mutating func expired(at now: Double) -> [UInt32] {
        let done = registered.filter { client, until in until <= now && pinned[client] == nil }.map(\.key).sorted()
        for client in done {
            registered[client] = nil
            ownCopies[client] = nil
        }
        return done
    }

    /// When the next client may be let go (nil: none is waiting).
    var deadline: Double? {
        registered.filter { pinned[$0.key] == nil }.values.min()
    }
}
