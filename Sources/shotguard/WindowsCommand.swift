// `shotguard windows`: the viewable windows, with what a rule needs to match them.
import ShotguardBase
import ShotguardImaging
import ShotguardX11
import ShotguardScreen

enum WindowsCommand: Subcommand {
    static let spec = CommandSpec(
        name: "windows", summary: "list the viewable windows, to help write rules",
        arguments: "",
        options: [
            OptionSpec("json", help: "Print a JSON array instead of a table."),
            OptionSpec("ids", help: "Print only the window ids, one per line (for shell completion)."),
            .help,
        ],
        details: "Top of the stack first; '*' marks the active window. Geometry is the client\n"
            + "area on the root in X geometry syntax (WxH+X+Y), as rules and --geometry take\n"
            + "it. Monitor is the RandR monitor that shows most of the window ('-' for none).\n"
            + "Type is the first EWMH window type (type= in rules); Protect is 'yes' for a\n"
            + "window that asks for protection (_SHOTGUARD_PROTECT, see 'shotguard protect').",
        examples: ["shotguard windows --json | jq -r '.[] | .class'"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("windows: takes no arguments") }
        try arguments.atMostOne(of: ["json", "ids"], for: spec)
        let display = try LiveDisplay.open()
        let context = display.screenContext()
        let windows = Array(context.windows.reversed())
        if arguments.has("ids") {
            Console.output(windows.map { hexID($0.id) + "\n" }.joined())
        } else if arguments.has("json") {
            Console.output(json(windows, context: context) + "\n")
        } else {
            Console.output(table(windows, context: context))
        }
    }

    private static func table(_ windows: [WindowInfo], context: ScreenContext) -> String {
        var lines = ["  ID          GEOMETRY              MONITOR     TYPE          PROTECT  CLASS                 INSTANCE"
            + "              TITLE"]
        for window in windows {
            let mark = window.id == context.activeWindowID ? "* " : "  "
            let monitor = context.monitor(holdingMostOf: window.frame)?.name ?? "-"
            // Names and titles are set by the windows' programs: escaped, they cannot drive the terminal.
            lines.append(mark + hexID(window.id).padding(toLength: 12) + window.frame.description.padding(toLength: 22)
                + monitor.escapingControlCharacters().padding(toLength: 12)
                + (window.types.first?.rawValue ?? "-").padding(toLength: 14) + (window.requestsProtection ? "yes" : "-").padding(toLength: 9)
                + window.className.escapingControlCharacters().padding(toLength: 22)
                + window.instance.escapingControlCharacters().padding(toLength: 22) + window.title.escapingControlCharacters())
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func json(_ windows: [WindowInfo], context: ScreenContext) -> String {
        let items = windows.map { window -> JSON in
            let monitor = context.monitor(holdingMostOf: window.frame)
            return JSON.object([
                ("id", .string(hexID(window.id))), ("class", .string(window.className)),
                ("instance", .string(window.instance)), ("title", .string(window.title)),
                ("geometry", .string(window.frame.description)), ("x", .number(window.frame.x)),
                ("y", .number(window.frame.y)), ("width", .number(window.frame.width)),
                ("height", .number(window.frame.height)), ("active", .bool(window.id == context.activeWindowID)),
                ("monitor", monitor.map { .string($0.name) } ?? .null),
                ("types", .array(window.types.map { .string($0.rawValue) })), ("protect", .bool(window.requestsProtection)),
                ("overrideRedirect", .bool(window.isOverrideRedirect)), ("opaque", .bool(window.isOpaque)),
            ])
        }
        return JSON.array(items).text
    }
}
