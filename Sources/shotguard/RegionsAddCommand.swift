// `shotguard regions add`: a rule appended to the regions file, by clicking a window or dragging
// over part of one, or from a shipped preset.
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen
import ShotguardX11

enum RegionsAddCommand: Subcommand {
    static let spec = CommandSpec(
        name: "regions add", summary: "add a rule by clicking a window, dragging over part of one, or from a preset",
        arguments: "",
        options: [
            OptionSpec("pick", help: "Click a window to protect it, or drag over part of one (Escape cancels)."),
            OptionSpec("preset", value: "NAME", help: "Add the shipped preset NAME (a password manager, a chat sidebar...)."),
            OptionSpec("list-presets", help: "List the shipped presets and what each protects."),
            .regions, .help,
        ],
        details: "--pick grabs the pointer: a click on a window adds a rule for the whole window, frame\n"
            + "included, by its class (with its instance or title when another window on screen has the\n"
            + "same class); a drag inside a window adds a rule for that rectangle, relative to the window's\n"
            + "client area, so it follows the window. The rule is appended to the regions file with a comment,\n"
            + "and printed; a running agent applies it to the next screenshot.\n\n"
            + "--preset NAME appends the rules of a preset shipped in share/shotguard/presets (rules\n"
            + "the file already has are left out). Exit status 2 when the regions file does not parse:\n"
            + "nothing is added to a file the agent cannot read.",
        examples: ["shotguard regions add --pick", "shotguard regions add --preset keepassxc"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("regions add: takes no arguments") }
        try arguments.atMostOne(of: ["pick", "preset", "list-presets"], for: spec)
        if arguments.has("list-presets") {
            let presets = try Presets.find()
            Console.output(presets.list().map { "\($0.name)\t\($0.summary)" }.joined(separator: "\n") + "\n")
            return
        }
        let path = arguments.value("regions") ?? RegionsFile.defaultPath
        let lines: [String]
        if let name = arguments.value("preset") {
            lines = try Presets.find().lines(of: name, existing: try RegionsAppend.existingText(path))
            guard !lines.isEmpty else {
                Console.output("\(path.escapingControlCharacters()) already has every rule of the preset \(name); nothing was added\n")
                return
            }
        } else if arguments.has("pick") {
            try checkParses(path)
            lines = try pick()
        } else {
            throw .usage("regions add: choose --pick (click or drag on the screen) or --preset NAME (see --list-presets)")
        }
        try RegionsAppend.append(lines, to: path)
    }

    /// Fails (exit 2, naming the error) when the file exists and does not parse.
    private static func checkParses(_ path: String) throws(CLIError) {
        guard let existing = try RegionsAppend.existingText(path) else { return }
        do throws(RegionsError) {
            _ = try RegionsFile.parse(existing, path: path)
        } catch {
            throw .usage("\(error.description) (fix it first: nothing was added)")
        }
    }

    /// The comment and rule for what the user clicks or drags.
    private static func pick() throws(CLIError) -> [String] {
        let display = try LiveDisplay.open()
        let picked = try LiveDisplay.run { () throws(X11Error) in
            try display.pickArea { Console.error("click a window to protect it, or drag over the part to protect (Escape cancels)\n") }
        }
        let frameWindow: UInt
        let rect: Rect?
        switch picked {
        case .window(let window): (frameWindow, rect) = (UInt(window), nil)
        case .rectangle(let window, let area): (frameWindow, rect) = (UInt(window), area)
        case .desktop: throw .failure("regions add --pick: that was the desktop, not a window; nothing was added")
        case .cancelled: throw .failure("regions add --pick: cancelled; nothing was added")
        }
        let context = display.screenContext()
        let client = try LiveDisplay.run { () throws(X11Error) in try display.clientWindow(of: .init(frameWindow)) }
        guard let window = context.windows.first(where: { $0.id == UInt(client) }) else {
            throw .failure("regions add --pick: window \(hexID(UInt(client))) is not a viewable top-level window; nothing was added")
        }
        let time = CalendarTime()
        let date = "\(time.year)-\(CalendarTime.pad(time.month))-\(CalendarTime.pad(time.day))"
        let rule = try PickedRule(window: window, rect: rect, among: context.windows, date: date)
        return [rule.comment, rule.line]
    }
}
