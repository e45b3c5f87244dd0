// The errors of the session bus, as sentences: a failed sd-bus call, an error reply, a name taken.
import Glibc

/// What went wrong on the session bus.
public enum BusError: Error, CustomStringConvertible, Sendable, Equatable {
    /// No session bus to connect to: neither `DBUS_SESSION_BUS_ADDRESS` nor `$XDG_RUNTIME_DIR/bus`.
    case noSessionBus(String)
    /// libsystemd, which speaks to the bus, could not be loaded: dlopen's reason.
    case noLibrary(String)
    /// An sd-bus call failed with `errno` (sd-bus returns it negated).
    case call(String, errno: Int32)
    /// The peer answered with a D-Bus error: its name and message.
    case reply(method: String, name: String, message: String)
    /// Another connection owns the well-known name (another agent on this session bus).
    case nameTaken(String)
    /// A reply did not have the shape the interface documents.
    case malformed(String)
    /// The connection to the bus was lost (the bus daemon stopped, the session ended).
    case lost(errno: Int32)

    public var description: String {
        switch self {
        case .noSessionBus(let why): return "no session bus: \(why)"
        case .noLibrary(let why): return "\(why): the session bus needs libsystemd (Debian: libsystemd0)"
        case .call(let call, let code): return "\(call): \(String(cString: strerror(code)))"
        case .reply(let method, let name, let message):
            return message.isEmpty ? "\(method): \(name)" : "\(method): \(message) (\(name))"
        case .nameTaken(let name): return "another program already owns \(name) on the session bus"
        case .malformed(let what): return "unexpected reply: \(what)"
        case .lost(let code): return "lost the session bus: \(String(cString: strerror(code)))"
        }
    }

    /// The D-Bus error name of a `.reply`, else nil.
    public var errorName: String? {
        if case .reply(_, let name, _) = self { return name }
        return nil
    }
}

/// Throws `.call` when an sd-bus call returned a negative errno; passes other results through.
@discardableResult
func checked(_ result: Int32, _ call: @autoclosure () -> String) throws(BusError) -> Int32 {
    if result < 0 { throw .call(call(), errno: -result) }
    return result
}
