// The connection to the X server: opening it, its root window, and whether it is local.
import CX11
import Glibc

/// An open X display. Not thread-safe: shotguard drives X from one thread.
public final class Display {
    public let handle: OpaquePointer
    public let name: String
    public let root: Window
    let screen: Int32
    /// Whether a `batch` is running: its requests share its one trap (see `trap`).
    private var isBatching = false
    /// Monitor names by atom: an atom's name never changes while the server runs.
    var monitorNames: [Atom: String] = [:]
    /// The window list's atoms, interned on first use: Xlib's own cache of 64 slots lets
    /// some of them fall out, and every miss is a round trip.
    var windowAtoms: WindowBatch.Atoms?
    /// Whether the server speaks RandR 1.5 (monitors); asked once, on first use.
    lazy var hasMonitors: Bool = queryMonitorSupport()

    /// Opens `name`, or `$DISPLAY` when nil.
    public init(name: String? = nil) throws(X11Error) {
        let displayName = name ?? getenv("DISPLAY").map { String(cString: $0) }
        guard let displayName, !displayName.isEmpty else {
            throw X11Error(.noDisplay, "no X display: DISPLAY is not set (shotguard needs an X11 session, or run 'shotguard demo')")
        }
        guard let handle = XOpenDisplay(displayName) else {
            throw X11Error(.noDisplay, "cannot open X display '\(displayName)' (is the X server running, and is DISPLAY right?)")
        }
        self.handle = handle
        self.name = displayName
        screen = XDefaultScreen(handle)
        root = XRootWindow(handle, screen)
        ErrorTrap.install(on: handle)
    }

    deinit {
        XCloseDisplay(handle)
        ErrorTrap.forget(handle)
    }

    /// The root window's size now. Asked of the server each time: XDisplayWidth keeps the size
    /// from connection time, and a monitor plugged in later changes it.
    public var size: (width: Int, height: Int) {
        var rootReturn: Window = 0
        var x: Int32 = 0, y: Int32 = 0
        var width: UInt32 = 0, height: UInt32 = 0, border: UInt32 = 0, depth: UInt32 = 0
        guard XGetGeometry(handle, root, &rootReturn, &x, &y, &width, &height, &border, &depth) != 0 else {
            return (Int(XDisplayWidth(handle, screen)), Int(XDisplayHeight(handle, screen)))
        }
        return (Int(width), Int(height))
    }

    public var width: Int { size.width }
    public var height: Int { size.height }
    public var fileDescriptor: Int32 { XConnectionNumber(handle) }
    public var depth: Int32 { XDefaultDepth(handle, screen) }
    public var visual: UnsafeMutablePointer<Visual> { XDefaultVisual(handle, screen) }

    /// Whether the connection is a Unix socket. MIT-SHM is used only then: over TCP (ssh -X)
    /// a segment id could name an unrelated segment on another machine.
    public var isLocalSocket: Bool {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fileDescriptor, $0, &length) }
        }
        return status == 0 && address.ss_family == sa_family_t(AF_UNIX)
    }

    /// Whether the server went away (the IO error handler fired). Nothing more can be asked of it.
    public var isLost: Bool { ErrorTrap.isConnectionLost(handle) }

    /// A round trip to the server: everything sent before has been processed.
    public func sync() { XSync(handle, 0) }

    public func flush() { XFlush(handle) }

    /// The server's error for a request, or nil; used after requests that can fail. Inside a
    /// `batch` it adds no round trips and returns no error: there, callers rely on the status
    /// each Xlib call returns, which is a failure whenever its reply was an error.
    public func trap<T>(_ body: () -> T) -> (T, XProtocolError?) {
        if isBatching { return (body(), nil) }
        return ErrorTrap.run(handle, body)
    }

    /// Runs many requests under one error trap: two round trips for the batch instead of two
    /// for each request. Only for requests whose own status shows failure (requests with
    /// replies); a window that vanished mid-batch then just fails its own requests.
    func batch<T>(_ body: () -> T) -> T {
        guard !isBatching else { return body() }
        let (result, _) = ErrorTrap.run(handle) { () -> T in
            isBatching = true
            defer { isBatching = false }
            return body()
        }
        return result
    }

    public func atom(_ name: String) -> Atom { XInternAtom(handle, name, 0) }
}
