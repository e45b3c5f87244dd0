// `shotguard doctor`: one screen that says what protects this session and what does not.
import ShotguardBase
import ShotguardImaging

enum DoctorCommand: Subcommand {
    static let spec = CommandSpec(
        name: "doctor", summary: "say what protects this session, what does not, and the fix",
        arguments: "",
        options: [OptionSpec("json", help: "Print one JSON object instead of the screen of text."), .regions, .help],
        details: "Checks the X server (RECORD, X-Resource, MIT-SHM, Composite, a compositing manager), the\n"
            + "session bus, a notification server, a tray, the accessibility bus, Tesseract and its model,\n"
            + "the agent and its settings, the rules and what they hit now, the system policy, and the\n"
            + "screenshot and recording programs installed; each is covered, a hole (with its fix) or a\n"
            + "note. Last, the capture paths no X11 client can see.\n\n"
            + "Exit status: 0 when protection has no hole, 1 when it has one.",
        examples: ["shotguard doctor", "shotguard doctor --json | jq '.checks[] | select(.state == \"hole\")'"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("doctor: takes no arguments") }
        let report = DoctorChecks(regionsPath: arguments.value("regions")).run()
        if arguments.has("json") {
            Console.output(report.json().text + "\n")
        } else {
            Console.output(report.lines().joined(separator: "\n") + "\n")
        }
        if report.holes > 0 { throw .quiet(.failure) }
    }
}
