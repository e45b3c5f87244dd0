// Who is on the session bus: whether a name has an owner, or a service the bus would start for it.

extension SessionBus {
    /// Whether `name` has an owner now, or the bus can start one for it (an activatable
    /// service, as notification daemons often are).
    public func provides(_ name: String) throws(BusError) -> Bool {
        if try nameHasOwner(name) { return true }
        let bus = try connection()
        let message = try BusMessage.methodCall(bus, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                interface: "org.freedesktop.DBus", member: "ListActivatableNames")
        return try call(message, method: "ListActivatableNames").readStrings(limit: 4096).contains(name)
    }

    /// Whether `name` has an owner now.
    public func isOwned(_ name: String) throws(BusError) -> Bool { try nameHasOwner(name) }
}
