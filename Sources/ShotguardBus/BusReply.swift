// Answering a method call from a C handler: the reply built by a closure, or the D-Bus error it threw.
import CSystemdBus
import Glibc

/// The D-Bus error a method call is answered with.
struct BusMethodError: Error {
    let name: String
    let message: String

    init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }

    init(_ error: BusError) {
        self.init("org.freedesktop.DBus.Error.Failed", error.description)
    }

    static func invalidArguments(_ message: String) -> BusMethodError {
        BusMethodError("org.freedesktop.DBus.Error.InvalidArgs", message)
    }

    /// Sets the error sd-bus replies with (it copies both strings) and returns its errno.
    func set(_ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        sg_sd_bus_error_set(error, name, message)
    }
}

extension SessionBus {
    /// Replies to `call` with what `body` appends (reading the call's arguments from the
    /// request it is given), or with the error it throws. For the C handlers of a vtable.
    func answer(_ call: OpaquePointer?, _ replyError: UnsafeMutablePointer<sd_bus_error>?,
                _ body: (_ request: BusMessage, _ reply: BusMessage) throws(BusError) -> Void) -> Int32 {
        guard let call, let connection = try? connection() else { return -ENOTCONN }
        let request = BusMessage(borrowing: call)
        do throws(BusError) {
            let reply = try request.methodReturn()
            try body(request, reply)
            try reply.send(on: connection)
            return 1
        } catch {
            if case .malformed(let what) = error { return BusMethodError.invalidArguments(what).set(replyError) }
            return BusMethodError(error).set(replyError)
        }
    }

    /// Emits a signal from `path`; best effort: a lost bus loses it, and the caller goes on.
    func emit(path: String, interface: String, member: String, _ arguments: (BusMessage) throws(BusError) -> Void = { _ in }) {
        guard let connection = try? connection() else { return }
        do throws(BusError) {
            let message = try BusMessage.signal(connection, path: path, interface: interface, member: member)
            try arguments(message)
            try message.send(on: connection)
        } catch {
            return
        }
    }
}
