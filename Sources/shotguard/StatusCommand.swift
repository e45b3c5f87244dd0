// `shotguard status`: whether the running agent protects this session, and if not, why.
import ShotguardBase
import ShotguardBus
import ShotguardImaging

enum StatusCommand: Subcommand {
    static let spec = CommandSpec(
        name: "status", summary: "say whether the agent protects this session (and why not)",
        arguments: "",
        options: [OptionSpec("json", help: "Print one JSON object instead of lines of text."), .help],
        details: "Asks the running agent over the session bus (org.shotguard.Agent1): protecting, paused until when,\n"
            + "or off and why; the rules in force by kind, the sources on, whether the X server shows screen reads\n"
            + "(RECORD), and the last report. When no agent runs it says what the systemd user manager knows.\n"
            + "Exit status: 0 while protecting; 1 while paused or off, when no agent runs, or on a bus error.",
        examples: ["shotguard status", "shotguard status --json | jq .state"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("status: takes no arguments") }
        let answer = AgentConnection.status()
        if arguments.has("json") {
            Console.output(StatusReport.json(answer).text + "\n")
        } else {
            Console.output(StatusReport.lines(answer).joined(separator: "\n") + "\n")
        }
        if case .agent(let status) = answer, status.protection == .protecting { return }
        throw .quiet(.failure)
    }
}

/// What `status` learnt: the agent's status, or why there is none to ask.
enum StatusAnswer {
    case agent(AgentStatus)
    case noAgent(String)
    case failed(String)
}

/// Reaching the agent from a command: the session bus, a client, and why it is not there.
enum AgentConnection {
    /// A client of the session bus, or why there is none ("no session bus: …").
    static func client(command: String? = nil) throws(CLIError) -> AgentClient {
        do throws(BusError) {
            return AgentClient(bus: try SessionBus.user())
        } catch {
            throw .failure((command.map { "\($0): " } ?? "") + "no agent runs: \(error)")
        }
    }

    static func status() -> StatusAnswer {
        let client: AgentClient
        do throws(CLIError) {
            client = try self.client()
        } catch {
            return .noAgent(error.message)
        }
        do throws(AgentClient.Failure) {
            return .agent(try client.status())
        } catch .noAgent {
            return .noAgent("no agent runs: " + AgentAbsence.reason(on: client.bus))
        } catch {
            return .failed(error.description)
        }
    }

    /// The error of a command that needs the agent, for `failure`.
    static func error(_ failure: AgentClient.Failure, client: AgentClient, command: String) -> CLIError {
        switch failure {
        case .noAgent: return .failure("\(command): no agent runs: " + AgentAbsence.reason(on: client.bus))
        case .refused(let why): return .failure("\(command): refused: \(why)")
        default: return .failure("\(command): \(failure)")
        }
    }
}
