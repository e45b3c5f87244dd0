// `shotguard shield -- COMMAND`: covers what the rules hit, runs COMMAND, uncovers once it has read the screen.
import ShotguardAgent
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardX11

enum ShieldCommand: Subcommand {
    static let spec = CommandSpec(
        name: "shield", summary: "cover what the rules hit while COMMAND reads the screen",
        arguments: "-- COMMAND [ARGS]",
        options: [
            .regions,
            OptionSpec("key-wait", help: "Run COMMAND once no key is held (at most 2 s): a binding on the key's press "
                + "and a tool that grabs the keyboard (scrot -s, maim -s)."),
            OptionSpec("limit", value: "SECONDS",
                       help: "Lower the covers after SECONDS if COMMAND has not read the screen (default 60)."),
            OptionSpec("verbose", help: "Say on standard error what was covered and what lowered the covers."),
            .help,
        ],
        details: "Maps covers in the rules' fills over every rectangle the rules hit now (what\n"
            + "'regions check' lists), runs COMMAND, and lowers the covers as soon as the X server\n"
            + "has executed COMMAND's first read of the screen: a read by COMMAND, by a process of\n"
            + "its group or by one it started, seen with the RECORD extension. Then it waits for\n"
            + "COMMAND and exits with its status (1 or 2 when COMMAND could not be started).\n\n"
            + "Without RECORD the covers stay up until COMMAND exits. COMMAND runs in a session of\n"
            + "its own; SIGINT, SIGTERM and SIGHUP are passed on to it. A program that COMMAND only\n"
            + "asks to take the screenshot (a daemon started before) is not one of its processes.",
        examples: ["shotguard shield -- scrot ~/shot.png", "shotguard shield --key-wait -- maim -s ~/area.png"],
        operand: .command)

    /// The longest `--limit`: covers up for longer would be a screen the user cannot use.
    static let maximumLimit = 3600.0

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard !arguments.positionals.isEmpty else {
            throw .usage("shield: missing COMMAND (expected e.g. 'shotguard shield -- scrot ~/shot.png')")
        }
        let limit = try limitSeconds(arguments.value("limit"))
        let regions = try RegionsLoader.load(explicitPath: arguments.value("regions"))
            ?? RegionsFile(path: RegionsFile.defaultPath, rules: [], hasUserFile: false)
        let display = try LiveDisplay.open()
        var context = display.screenContext()
        LiveFields.attach(to: &context, regions: regions, display: display)
        let covers = regions.hits(against: context).map { ShieldCover(rect: $0.rect, fill: $0.fill) }
        let verbose = arguments.has("verbose")
        let run = ShieldRun(display: display, covers: covers, limit: limit, waitForKeys: arguments.has("key-wait"),
                            warn: { Console.error("shotguard: shield: \($0.escapingControlCharacters())\n") },
                            note: { if verbose { Console.error("shotguard: shield: \($0.escapingControlCharacters())\n") } })
        let outcome: ShieldRunOutcome
        do throws(ShieldRunError) {
            outcome = try run.run(arguments.positionals)
        } catch {
            throw .failure("shield: \(error.message)")
        }
        if outcome.exitStatus != 0 { throw .quiet(ExitCode(rawValue: outcome.exitStatus)) }
    }

    /// `--limit SECONDS`: a number of seconds above 0, at most an hour; 60 when not given.
    static func limitSeconds(_ text: String?) throws(CLIError) -> Double {
        guard let text else { return 60 }
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= maximumLimit else {
            throw .usage("shield: --limit '\(CLI.printable(text))' is not a number of seconds "
                + "(expected more than 0 and at most \(Int(maximumLimit)), such as 60 or 0.5)")
        }
        return seconds
    }
}
