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
        // One spec asks for one client's pid: one value, or none; a few more are looked at, no more.
        base == 0 ? nil : processIDs(ofClient: base, atMost: 8)[base]
    }

    /// The process id of every client the server can tell one for, by resource-id base, in one
    /// round trip (X-Resource 1.2, a spec of no client: every client). Empty when the server has
    /// no X-Resource, or libXRes cannot be loaded.
    public func processIDsOfAllClients() -> [UInt32: Int32] {
        // The server has at most a few hundred clients; a few thousand values are looked at, no more.
        processIDs(ofClient: 0, atMost: 4096)
    }

    /// X-Resource's pids for client `base` (0: every client), by each value's client, looking
    /// at `atMost` values. Asked of the server once per connection whether it has X-Resource;
    /// Xlib keeps the answer.
    private func processIDs(ofClient base: UInt32, atMost limit: Int) -> [UInt32: Int32] {
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        guard SensingLibraries.failure == nil, sg_XResQueryExtension(handle, &eventBase, &errorBase) != 0 else { return [:] }
        var spec = XResClientIdSpec(client: XID(base), mask: UInt32(XRES_CLIENT_ID_PID_MASK.rawValue))
        var count = 0
        var values: UnsafeMutablePointer<XResClientIdValue>?
        let (status, error) = trap { sg_XResQueryClientIds(handle, 1, &spec, &count, &values) }
        defer { if let values { sg_XResClientIdsDestroy(count, values) } }
        guard status == Success, error == nil, let values else { return [:] }
        var found: [UInt32: Int32] = [:]
        for index in 0..<min(max(count, 0), limit) {
            let pid = sg_XResGetClientPid(values + index)
            let client = UInt32(truncatingIfNeeded: values[index].spec.client)
            if pid > 0, client != 0 { found[client] = pid }
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
