// `shotguard resume`: end a pause at once, over the bus.
import ShotguardBus

enum ResumeCommand: Subcommand {
    static let spec = CommandSpec(
        name: "resume", summary: "end a pause: protect again at once",
        arguments: "",
        options: [.help],
        details: "Asks the running agent over the session bus. Protection that was not paused stays as it is.\n"
            + "Exit status 1 when no agent runs.",
        examples: ["shotguard resume"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("resume: takes no arguments") }
        let client = try AgentConnection.client(command: "resume")
        let wasPaused: Bool
        do throws(AgentClient.Failure) {
            wasPaused = try client.resume()
        } catch {
            throw AgentConnection.error(error, client: client, command: "resume")
        }
        Console.output(wasPaused ? "resumed\n" : "was not paused\n")
    }
}
