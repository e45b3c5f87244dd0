// `shotguard pause [DURATION]`: pause protection for a while (a remote-support session), over the bus.
import ShotguardBus

enum PauseCommand: Subcommand {
    static let spec = CommandSpec(
        name: "pause", summary: "pause protection for a while (default 10 minutes)",
        arguments: "[DURATION]",
        options: [OptionSpec("until-resume", help: "Pause until 'shotguard resume', with no end of its own (as DURATION 0)."),
                  .help],
        details: "DURATION is a number with h, m or s, or several added up: 90s, 10m, 1h, 1h30m\n"
            + "(at most 24h); 0 pauses until 'shotguard resume'. A pause ends by itself when\n"
            + "its time is up. While paused the agent redacts nothing and shields nothing. Asks\n"
            + "the running agent over the session bus; exit status 1 when no agent runs or it\n"
            + "refuses (a policy that forbids pausing).",
        examples: ["shotguard pause 30m", "shotguard pause --until-resume"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.count <= 1 else { throw .usage("pause: expected at most one DURATION, such as 10m") }
        let seconds: Double
        if let text = arguments.positionals.first {
            if arguments.has("until-resume") { throw .usage("pause: give DURATION or --until-resume, not both") }
            guard let parsed = PauseDuration.seconds(text) else {
                throw .usage("pause: '\(CLI.printable(text))' is not a duration (expected a number with h, m or s, "
                    + "such as 90s, 10m or 1h30m, at most 24h; 0 pauses until 'shotguard resume')")
            }
            seconds = parsed
        } else {
            seconds = arguments.has("until-resume") ? 0 : PauseDuration.defaultSeconds
        }
        let client = try AgentConnection.client(command: "pause")
        let until: Double?
        do throws(AgentClient.Failure) {
            until = try client.pause(seconds: seconds)
        } catch {
            throw AgentConnection.error(error, client: client, command: "pause")
        }
        if let until {
            Console.output("paused until \(StatusReport.clock(until)) (\(PauseDuration.describe(seconds))); "
                + "'shotguard resume' ends it sooner\n")
        } else {
            Console.output("paused until 'shotguard resume'\n")
        }
    }
}
