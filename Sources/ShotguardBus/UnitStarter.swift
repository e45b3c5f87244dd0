// Starts shotguard.service in the systemd user manager for the autostart entry, after giving the
// manager the session's DISPLAY and XAUTHORITY: the same agent whether or not the session ever
// reaches graphical-session.target.

/// What `UnitStarter.start` did.
public enum UnitStart: Sendable, Equatable {
    /// The manager started the unit (or found it running): the job's object path.
    case started(job: String)
    /// No systemd user manager on the session bus.
    case noManager
    /// The manager runs, but the unit is not installed (its load state says why).
    case noUnit(loadState: String)
}

public enum UnitStarter {
    private static let manager = "org.freedesktop.systemd1"
    private static let managerPath = "/org/freedesktop/systemd1"
    private static let managerInterface = "org.freedesktop.systemd1.Manager"

    /// Sets `environment` (`NAME=value` entries) in the user manager, clears a failed state left
    /// by an earlier session (a start limit hit after the last logout), and starts the unit.
    public static func start(on bus: SessionBus, environment: [String]) throws(BusError) -> UnitStart {
        guard try bus.nameHasOwner(manager) else { return .noManager }
        let connection = try bus.connection()
        func call(_ member: String, _ arguments: [String]) throws(BusError) -> BusMessage {
            let message = try BusMessage.methodCall(connection, destination: manager, path: managerPath,
                                                    interface: managerInterface, member: member)
            for argument in arguments { try message.append(argument) }
            return try bus.call(message, method: member)
        }
        let path = try call("LoadUnit", [UserManagerProbe.unit]).readObjectPath()
        let loadState = try bus.property(destination: manager, path: path, interface: "org.freedesktop.systemd1.Unit",
                                         name: "LoadState", type: "s").readString()
        guard loadState == "loaded" else { return .noUnit(loadState: String(loadState.prefix(100))) }
        if !environment.isEmpty {
            let message = try BusMessage.methodCall(connection, destination: manager, path: managerPath,
                                                    interface: managerInterface, member: "SetEnvironment")
            try message.append(environment)
            _ = try bus.call(message, method: "SetEnvironment")
        }
        do throws(BusError) {
            _ = try call("ResetFailedUnit", [UserManagerProbe.unit])
        } catch {
            // Nothing to reset is fine; anything else shows again in StartUnit.
        }
        let job = try call("StartUnit", [UserManagerProbe.unit, "replace"]).readObjectPath()
        return .started(job: job)
    }
}
