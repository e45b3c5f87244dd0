// One connection to the user's session bus, shaped for a poll loop: a descriptor, the events to
// wait for, a deadline, and a process call that never blocks.
import CSystemdBus
import Glibc
import ShotguardBase

/// A connection to a session bus (sd-bus). Single-threaded: use it from the thread that made it.
///
/// In a poll loop: wait for `pollEvents` on `fileDescriptor` until `deadline`, then call
/// `process()`. Everything that uses the connection (the agent's service, notifications) is
/// dispatched from there. Once the connection is lost the descriptor is -1, which `poll`
/// ignores, and `process()` does nothing.
public final class SessionBus {
    /// The sd-bus connection; nil once closed or lost.
    private(set) var handle: OpaquePointer?

    /// The user's session bus: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`.
    public static func user() throws(BusError) -> SessionBus {
        let environment = (getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) } ?? "")
        if environment.isEmpty {
            guard let runtime = XDGPaths.runtimeDirectory() else {
                throw .noSessionBus("DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are not set")
            }
            var status = stat()
            if stat(runtime + "/bus", &status) != 0 {
                throw .noSessionBus("DBUS_SESSION_BUS_ADDRESS is not set and there is no \(runtime)/bus")
            }
        }
        try loadLibrary()
        var bus: OpaquePointer?
        let result = sg_sd_bus_open_user(&bus)
        guard result >= 0, let bus else {
            let place = environment.isEmpty ? "$XDG_RUNTIME_DIR/bus" : "DBUS_SESSION_BUS_ADDRESS=\(environment)"
            throw .noSessionBus("cannot connect to \(place): \(String(cString: strerror(-result)))")
        }
        return SessionBus(handle: bus)
    }

    /// A bus at `address` (a D-Bus address such as `unix:path=/run/user/1000/bus`), treated as
    /// a session bus: for tests and private buses.
    public convenience init(address: String) throws(BusError) {
        try Self.loadLibrary()
        var bus: OpaquePointer?
        try checked(sg_sd_bus_new(&bus), "sd_bus_new")
        guard let bus else { throw .call("sd_bus_new", errno: ENOMEM) }
        do throws(BusError) {
            try checked(sg_sd_bus_set_address(bus, address), "sd_bus address '\(address)'")
            try checked(sg_sd_bus_set_bus_client(bus, 1), "sd_bus_set_bus_client")
            try checked(sg_sd_bus_start(bus), "cannot connect to the bus at \(address)")
        } catch {
            sg_sd_bus_unref(bus)
            throw error
        }
        self.init(handle: bus)
    }

    /// Loads libsystemd (once per process; see CSystemdBus). Every sd-bus call goes through a
    /// connection, so the two ways to make one are the only places that need it loaded.
    private static func loadLibrary() throws(BusError) {
        var message = [CChar](repeating: 0, count: 512)
        guard sg_sd_bus_load(&message, message.count) != 0 else { return }
        throw .noLibrary(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        if let handle { sg_sd_bus_flush_close_unref(handle) }
    }

    /// The descriptor to poll, or -1 once the connection is gone.
    public var fileDescriptor: Int32 {
        guard let handle else { return -1 }
        return max(-1, sg_sd_bus_get_fd(handle))
    }

    /// `POLLIN`, with `POLLOUT` while messages wait to be written.
    public var pollEvents: Int16 {
        guard let handle else { return 0 }
        let events = sg_sd_bus_get_events(handle)
        return events < 0 ? Int16(POLLIN) : Int16(truncatingIfNeeded: events)
    }

    /// When `process()` must run even if the descriptor stays quiet (a call timing out, messages
    /// already read and queued), in seconds of `monotonicNow()`; nil when nothing is due.
    public var deadline: Double? {
        guard let handle else { return nil }
        var usec: UInt64 = 0
        guard sg_sd_bus_get_timeout(handle, &usec) >= 0, usec != UInt64.max else { return nil }
        return Double(usec) / 1e6
    }

    /// Reads, dispatches and writes whatever is ready, without waiting: method calls reach their
    /// handlers, replies their callbacks. At most `limit` messages a call, so a flood cannot
    /// hold the caller's loop; the deadline is then due at once. Throws once, when the
    /// connection is lost; afterwards it does nothing.
    public func process(limit: Int = 64) throws(BusError) {
        guard let handle else { return }
        for _ in 0..<limit {
            let result = sg_sd_bus_process(handle, nil)
            if result == 0 { return }
            if result < 0 {
                close()
                throw .lost(errno: -result)
            }
        }
    }

    /// Closes the connection (the well-known names it owned are released by the bus).
    public func close() {
        guard let handle else { return }
        sg_sd_bus_flush_close_unref(handle)
        self.handle = nil
    }

    /// The open connection, or `.lost` once it is gone.
    func connection() throws(BusError) -> OpaquePointer {
        guard let handle else { throw .lost(errno: ENOTCONN) }
        return handle
    }
}
