// Why no agent answers: no session bus, or what the systemd user manager knows of the unit.

public enum AgentAbsence {
    /// Why no agent owns `org.shotguard.Agent1` on `bus`, when the user manager can tell.
    public static func reason(on bus: SessionBus) -> String {
        let probe: UserManagerProbe?
        do throws(BusError) {
            probe = try UserManagerProbe.ask(bus)
        } catch {
            return "the systemd user manager could not be asked (\(error))"
        }
        guard let probe else {
            return "no systemd user manager on the session bus: start the agent with 'shotguard watch' "
                + "(the autostart entry runs 'shotguard autostart', which does)"
        }
        return probe.explanation
    }
}
