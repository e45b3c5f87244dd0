// Method calls that wait for their reply (for the command line, never the agent's loop), and the
// D-Bus errors they come back with.
import CSystemdBus
import Glibc

extension SessionBus {
    /// Sends `call` and waits up to `timeout` seconds for the reply; an error reply throws
    /// `.reply` with its D-Bus error name and message.
    func call(_ call: BusMessage, method: String, timeout: Double = 5) throws(BusError) -> BusMessage {
        let bus = try connection()
        var error = sd_bus_error()
        defer { sg_sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let result = sg_sd_bus_call(bus, call.pointer, UInt64(max(0.001, timeout) * 1e6), &error, &reply)
        if result < 0 {
            if let failure = BusError(replyError: error, method: method) { throw failure }
            throw .call(method, errno: -result)
        }
        guard let reply else { throw .call(method, errno: EIO) }
        return BusMessage(owning: reply)
    }

    /// Whether some connection owns `name` (org.freedesktop.DBus.NameHasOwner).
    func nameHasOwner(_ name: String) throws(BusError) -> Bool {
        let bus = try connection()
        let message = try BusMessage.methodCall(bus, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                interface: "org.freedesktop.DBus", member: "NameHasOwner")
        try message.append(name)
        return try call(message, method: "NameHasOwner").readBool()
    }

    /// One property (org.freedesktop.DBus.Properties.Get), its variant entered: read the value
    /// from the returned message.
    func property(destination: String, path: String, interface: String, name: String,
                  type: String) throws(BusError) -> BusMessage {
        let bus = try connection()
        let message = try BusMessage.methodCall(bus, destination: destination, path: path,
                                                interface: "org.freedesktop.DBus.Properties", member: "Get")
        try message.append(interface)
        try message.append(name)
        let reply = try call(message, method: "\(interface).\(name)")
        guard let next = try reply.peek(), next.type == "v", next.contents == type else {
            throw .malformed("\(interface).\(name) is not of type \(type)")
        }
        try reply.enter("v", type)
        return reply
    }
}

extension BusError {
    /// The error a failed call was answered with, if `error` holds one.
    init?(replyError error: sd_bus_error, method: String) {
        guard let name = error.name else { return nil }
        self = .reply(method: method, name: String(cString: name), message: error.message.map { String(cString: $0) } ?? "")
    }

    /// The D-Bus error names that mean nobody owns the destination.
    static let noOwnerNames: Set<String> = ["org.freedesktop.DBus.Error.ServiceUnknown",
                                            "org.freedesktop.DBus.Error.NameHasNoOwner"]

    /// Whether the call failed because nobody owns its destination.
    public var isNoOwner: Bool { errorName.map { Self.noOwnerNames.contains($0) } ?? false }
}
