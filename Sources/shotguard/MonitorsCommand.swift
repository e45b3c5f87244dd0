// `shotguard monitors`: the RandR monitors, by name, for monitor rules and capture --monitor.
import ShotguardBase
import ShotguardImaging
import ShotguardX11
import ShotguardScreen

enum MonitorsCommand: Subcommand {
    static let spec = CommandSpec(
        name: "monitors", summary: "list the RandR monitors, to help write monitor rules",
        arguments: "",
        options: [
            OptionSpec("json", help: "Print a JSON array instead of a table."),
            OptionSpec("names", help: "Print only the monitor names, one per line (for shell completion)."),
            .help,
        ],
        details: "In the server's order; '*' marks the primary monitor. Geometry is the monitor's rectangle on\n"
            + "the root in X geometry syntax (WxH+X+Y). Names go in monitor rules (name=NAME) and --monitor.",
        examples: ["shotguard monitors --names"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("monitors: takes no arguments") }
        try arguments.atMostOne(of: ["json", "names"], for: spec)
        let display = try LiveDisplay.open()
        let monitors = display.monitors()
        if arguments.has("names") {
            Console.output(monitors.map { $0.name.escapingControlCharacters() + "\n" }.joined())
        } else if arguments.has("json") {
            let items = monitors.map { monitor in
                JSON.object([
                    ("name", .string(monitor.name)), ("geometry", .string(monitor.frame.description)),
                    ("x", .number(monitor.frame.x)), ("y", .number(monitor.frame.y)),
                    ("width", .number(monitor.frame.width)), ("height", .number(monitor.frame.height)),
                    ("primary", .bool(monitor.isPrimary)),
                ])
            }
            Console.output(JSON.array(items).text + "\n")
        } else {
            var lines = ["  NAME                  GEOMETRY"]
            for monitor in monitors {
                lines.append((monitor.isPrimary ? "* " : "  ") + monitor.name.escapingControlCharacters().padding(toLength: 22)
                    + monitor.frame.description)
            }
            Console.output(lines.joined(separator: "\n") + "\n")
        }
    }
}
