// Why no agent runs, as far as the systemd user manager can tell: the unit missing, failed, never
// started, or the manager without DISPLAY (a plain X session that did not import it).

/// What the systemd user manager on a session bus knows about `shotguard.service`.
public struct UserManagerProbe: Sendable, Equatable {
    public static let unit = "shotguard.service"
    /// The command that gives the user manager the session's display.
    public static let importCommand = "systemctl --user import-environment DISPLAY XAUTHORITY"

    /// Whether the manager's environment has DISPLAY (what the unit's agent would connect to).
    public var hasDisplay: Bool
    /// `loaded`, `not-found`, `masked`…
    public var loadState: String
    /// `active`, `inactive`, `failed`, `activating`…
    public var activeState: String
    /// `enabled`, `disabled`, `static`…
    public var unitFileState: String
    /// The service's result (`success`, `exit-code`, `start-limit-hit`…).
    public var result: String
    /// The exit status of its last run.
    public var exitStatus: Int32

    public init(hasDisplay: Bool, loadState: String, activeState: String, unitFileState: String, result: String,
                exitStatus: Int32) {
        self.hasDisplay = hasDisplay
        self.loadState = loadState
        self.activeState = activeState
        self.unitFileState = unitFileState
        self.result = result
        self.exitStatus = exitStatus
    }

    /// Why the agent does not run, as a sentence to follow "no agent runs: ".
    public var explanation: String {
        let unit = Self.unit
        let importHint = "the systemd user manager has no DISPLAY (a session that does not import it, such as a plain "
            + "X session): run '\(Self.importCommand)', then 'systemctl --user restart \(unit)'"
        if loadState == "not-found" {
            return "\(unit) is not installed for the systemd user manager; run 'shotguard watch', or install the unit"
        }
        if loadState == "masked" { return "\(unit) is masked ('systemctl --user unmask \(unit)')" }
        switch activeState {
        case "failed":
            let how = result == "exit-code" ? "exit status \(exitStatus)" : result
            return hasDisplay ? "\(unit) failed (\(how)): see 'journalctl --user -u \(unit)'" : "\(unit) failed (\(how)); " + importHint
        case "active", "reloading", "activating":
            return "\(unit) is \(activeState), but no agent owns \(AgentInterface.busName) (it may still be starting, "
                + "or be connected to another session bus)"
        default:
            if !hasDisplay { return importHint }
            if unitFileState != "enabled" {
                return "\(unit) is not started and not enabled: run 'systemctl --user enable --now \(unit)'"
            }
            return "\(unit) is enabled but was not started (graphical-session.target never started: a plain X "
                + "session): run 'systemctl --user start \(unit)'"
        }
    }
}

extension UserManagerProbe {
    private static let manager = "org.freedesktop.systemd1"
    private static let managerPath = "/org/freedesktop/systemd1"

    /// Asks the systemd user manager on `bus`; nil when none runs there. Never starts one.
    public static func ask(_ bus: SessionBus) throws(BusError) -> UserManagerProbe? {
        guard try bus.nameHasOwner(manager) else { return nil }
        let environment = try bus.property(destination: manager, path: managerPath, interface: "\(manager).Manager",
                                           name: "Environment", type: "as").readStrings(limit: 4096)
        let connection = try bus.connection()
        let load = try BusMessage.methodCall(connection, destination: manager, path: managerPath,
                                             interface: "\(manager).Manager", member: "LoadUnit")
        try load.append(unit)
        let path = try bus.call(load, method: "LoadUnit").readObjectPath()
        func text(_ interface: String, _ name: String) throws(BusError) -> String {
            String(try bus.property(destination: manager, path: path, interface: "\(manager).\(interface)", name: name,
                                    type: "s").readString().prefix(200))
        }
        let loadState = try text("Unit", "LoadState")
        var result = ""
        var status: Int32 = 0
        if loadState == "loaded" {
            result = try text("Service", "Result")
            status = try bus.property(destination: manager, path: path, interface: "\(manager).Service",
                                      name: "ExecMainStatus", type: "i").readInt32()
        }
        return UserManagerProbe(hasDisplay: environment.contains { $0.hasPrefix("DISPLAY=") && $0.count > 8 },
                                loadState: loadState, activeState: try text("Unit", "ActiveState"),
                                unitFileState: try text("Unit", "UnitFileState"), result: result, exitStatus: status)
    }
}
