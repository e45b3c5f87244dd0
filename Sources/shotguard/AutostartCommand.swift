// `shotguard autostart`: what the XDG autostart entry runs. The systemd user unit when a user
// manager has it (after giving it the session's DISPLAY), else the agent itself.
@preconcurrency import Glibc
import ShotguardAgent
import ShotguardBus

enum AutostartCommand: Subcommand {
    static let spec = CommandSpec(
        name: "autostart", summary: "start the agent for this X session (what the autostart entry runs)",
        arguments: "",
        options: [.help],
        details: "With a systemd user manager that has shotguard.service, imports DISPLAY and XAUTHORITY into\n"
            + "it (as 'systemctl --user import-environment DISPLAY XAUTHORITY' does) and starts the unit, so\n"
            + "that sessions that never reach graphical-session.target (openbox, i3 from xinit) get the same\n"
            + "agent; otherwise runs 'shotguard watch' in its place. Never two agents: the unit already\n"
            + "running is left as it is (exit 0, saying so), and a second agent on a display refuses to start.",
        examples: ["shotguard autostart"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("autostart: takes no arguments") }
        guard let display = variable("DISPLAY") else {
            throw .failure("autostart: DISPLAY is not set (run it from the X session, as its autostart entry does)")
        }
        // An agent already runs for this display (the unit, or one started by hand): left as it is.
        if InstanceLock.isHeld(display: display) {
            Console.error("shotguard: an agent already runs for display \(CLI.printable(display)); it is left as it is\n")
            return
        }
        var environment = ["DISPLAY=\(display)"]
        if let authority = variable("XAUTHORITY") { environment.append("XAUTHORITY=\(authority)") }
        do throws(BusError) {
            let bus = try SessionBus.user()
            let outcome = try UnitStarter.start(on: bus, environment: environment)
            bus.close()
            if case .started = outcome {
                Console.error("shotguard: started \(UserManagerProbe.unit) in the systemd user manager for display "
                    + "\(CLI.printable(display))\n")
                return
            }
        } catch {
            Console.error("shotguard: autostart: \(CLI.printable(error.description)); running the agent here instead\n")
        }
        try runAgentHere()
    }

    private static func variable(_ name: String) -> String? {
        guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return value
    }

    /// Replaces this process with `shotguard watch` (the same binary), so the session's
    /// autostart sees the agent as its own child, as with an entry that ran it directly.
    private static func runAgentHere() throws(CLIError) -> Never {
        let words: [String] = ["shotguard", "watch"]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        execv("/proc/self/exe", arguments)
        let code = errno
        arguments.forEach { free($0) }
        throw .failure("autostart: cannot run 'shotguard watch': \(String(cString: strerror(code)))")
    }
}
