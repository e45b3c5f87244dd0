// Which client a resource belongs to, and which process a client is (X-Resource).
import CX11
import CXCB

extension Display {
    /// This connection's resource-id base: what RECORD reports as the `id_base` of its
    /// requests, so a source can leave this connection's own reads out.
    public var clientBase: UInt32 {
        guard let setup = xcb_get_setup(XGetXCBConnection(handle)) else { return 0 }
        return setup.pointee.resource_id_base
    }

    /// The resource-id base of the client that created `resource` (a window, a pixmap). The
    /// server splits every 29-bit id into the client's base and the client's own part; the
    /// size of that part is the same for every client, so this connection's mask tells it.
    public func clientBase(ofResource resource: UInt) -> UInt32 {
        let own = xcb_get_setup(XGetXCBConnection(handle)).map { $0.pointee.resource_id_mask } ?? 0x1F_FFFF
        return UInt32(truncatingIfNeeded: resource) & ~own & 0x1FFF_FFFF
    }

    /// The process id of the client with resource-id base `base`, from X-Resource 1.2
    /// (`XResQueryClientIds` with `XRES_CLIENT_ID_PID_MASK`). Nil when the server has no
    /// X-Resource (or an older one), when the client is gone (a screenshot tool may close its
    /// connection right after its read: the screen-read source asks as each client connects,
    /// see `ScreenRead.processID`), or when the server cannot know: a client over TCP (ssh -X)
    /// has no local process. A client that passed its connection on (a wrapper, a forked child)
    /// shows the pid the server saw when the connection was made. Nil too when libXRes cannot
    /// be loaded (the screen-read source says so).
    public func processID(ofClient base: UInt32) -> Int32? {
        base == 0 ? nil : clientProcesses(of: base).pids[base]
    }

    /// The process id of every client the server can tell one for, by resource-id base, in one
    /// round trip (X-Resource 1.2, a spec of no client: every client). Empty when the server has
    /// no X-Resource, or libXRes cannot be loaded.
    public func processIDsOfAllClients() -> [UInt32: Int32] { clientProcesses(of: 0).pids }

    /// What X-Resource 1.2 says of client `base` (0: of every client), in one round trip: the
    /// process of each it can tell one for, and which of them it has at all (a client over TCP
    /// is there with no process; a client that closed its connection is not there). Not
    /// `known` when the server has no X-Resource, libXRes cannot be loaded, or the server refused.
    public func clientProcesses(of base: UInt32) -> ClientProcesses {
        // One client has one value of each kind; every client, a few hundred: a few more are looked at, no more.
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        guard SensingLibraries.failure == nil, sg_XResQueryExtension(handle, &eventBase, &errorBase) != 0 else {
            return ClientProcesses(known: false)
        }
        let limit = base == 0 ? 8192 : 8
        var spec = XResClientIdSpec(client: XID(base), mask: UInt32(XRES_CLIENT_ID_PID_MASK.rawValue | XRES_CLIENT_ID_XID_MASK.rawValue))
        var count = 0
        var values: UnsafeMutablePointer<XResClientIdValue>?
        let (status, error) = trap { sg_XResQueryClientIds(handle, 1, &spec, &count, &values) }
        defer { if let values { sg_XResClientIdsDestroy(count, values) } }
        guard status == Success, error == nil else { return ClientProcesses(known: false) }
        var found = ClientProcesses(known: true)
        for index in 0..<min(max(count, 0), limit) {
            guard let value = values?[index] else { break }
            let client = UInt32(truncatingIfNeeded: value.spec.client)
            guard client != 0 else { continue }
            if value.spec.mask & UInt32(XRES_CLIENT_ID_XID_MASK.rawValue) != 0 { found.clients.insert(client) }
            if value.spec.mask & UInt32(XRES_CLIENT_ID_PID_MASK.rawValue) != 0 {
                let pid = sg_XResGetClientPid(values! + index)
                if pid > 0 { found.pids[client] = pid }
            }
        }
        return found
    }

    /// The process id of the client that created `window` (its id's base). For a top-level
    /// window a window manager reparented, that is the application; for the frame around it,
    /// the window manager.
    public func processID(ofWindow window: UInt) -> Int32? {
        processID(ofClient: clientBase(ofResource: window))
    }
}

/// X-Resource's answer about clients: the process of each it could tell one for, and every
/// client it has. `known` is false when there was no answer (no X-Resource): then nothing can
/// be told of a client's absence either.
public struct ClientProcesses: Sendable, Equatable {
    public let known: Bool
    public var pids: [UInt32: Int32] = [:]
    public var clients: Set<UInt32> = []

    public init(known: Bool, pids: [UInt32: Int32] = [:], clients: Set<UInt32> = []) {
        self.known = known
        self.pids = pids
        self.clients = clients
    }

    /// Whether the server answered and no longer has `client`: it closed its connection
    /// before it was asked about (its process may still run).
    public func isGone(_ client: UInt32) -> Bool { known && !clients.contains(client) && pids[client] == nil }
}
