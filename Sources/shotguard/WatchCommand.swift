// `shotguard watch`: the background agent that notices screenshots and reports them redacted.
import ShotguardAgent
import ShotguardBase
import ShotguardX11
import ShotguardImaging

enum WatchCommand: Subcommand {
    static let spec = CommandSpec(
        name: "watch", summary: "notice screenshots and hand them on redacted (the background agent)",
        arguments: "",
        options: [
            .regions,
            OptionSpec("dir", value: "DIR", repeatable: true,
                       help: "Also watch DIR for screenshots (repeatable; it may not exist yet)."),
            OptionSpec("tool-class", value: "CLASS", repeatable: true,
                       help: "Also treat windows of WM_CLASS CLASS as a screenshot tool (repeatable)."),
            OptionSpec("spool", value: "DIR",
                       help: "Write reports into DIR (default $XDG_STATE_HOME/shotguard/reports)."),
            OptionSpec("keep", value: "N", help: "Keep the newest N reports in the spool, removing the oldest (default 500)."),
            OptionSpec("keep-for", value: "DURATION",
                       help: "Keep reports for DURATION (30m, 12h, 7d; default 1d) or 'forever'."),
            OptionSpec("keep-unredacted",
                       help: "Also keep the image of a screenshot no rule touched (by default only its report)."),
            OptionSpec("exec", value: "CMD", help: "Run CMD through /bin/sh for each report, with SHOTGUARD_IMAGE and SHOTGUARD_REPORT."),
            OptionSpec("report-to", value: "DEST", repeatable: true,
                       help: "Also send each report to DEST: sentry:DSN, an https:// webhook, or exec:CMD (repeatable; queued on disk)."),
            OptionSpec("report-header-file", value: "FILE",
                       help: "Send the headers in FILE ('Name: value' lines, mode 0600) with each webhook request."),
            OptionSpec("report-ask", help: "Send a report only when you choose 'Report this screenshot…' on its notification."),
            OptionSpec("report-queue", value: "N", help: "Keep at most N reports waiting to be sent, dropping the oldest (default 2000)."),
            OptionSpec("report-queue-size", value: "SIZE", help: "Keep at most SIZE of reports waiting (512M, 2G; default 1G)."),
            OptionSpec("report-queue-for", value: "DURATION",
                       help: "Drop a report that waited longer than DURATION (12h, 7d; default 7d) or 'forever'."),
            OptionSpec("json", help: "Print each report as one JSON line on standard output."),
            OptionSpec("once", help: "Exit after the first report."),
            OptionSpec("verbose", help: "Log every signal and decision."),
            OptionSpec("no-files", help: "Do not watch folders for screenshot files."),
            OptionSpec("no-clipboard", help: "Do not watch the clipboard."),
            OptionSpec("no-tools", help: "Do not watch for screenshot tools' windows."),
            OptionSpec("no-guard", help: "Only report: leave screenshot files and the clipboard as the tool made them."),
            OptionSpec("no-notify", help: "Show no desktop notifications."),
            OptionSpec("no-tray", help: "Show no tray icon (XEmbed system tray or StatusNotifierItem)."),
            OptionSpec("no-indicator", help: "Show no mark on screen while a program records the screen."),
            OptionSpec("shield", help: "Cover what the rules hit the moment Print is pressed, before the tool reads the screen."),
            OptionSpec("no-shield", help: "Do not cover what the rules hit while a program records or shares the screen."),
            OptionSpec("shield-key", value: "KEYSYM", repeatable: true,
                       help: "Also shield on the key KEYSYM, with any modifiers (repeatable; with --shield)."),
            OptionSpec("no-read-ahead",
                       help: "Do not read the screen's text ahead of screenshots (text rules then OCR the screenshot itself)."),
            .noShm, .compression,
            OptionSpec("config", value: "FILE",
                       help: "Read settings from FILE instead of $XDG_CONFIG_HOME/shotguard/agent.conf."),
            .help,
        ],
        details: "Watches the XDG pictures folder, its Screenshots subfolder, the home folder and every --dir,\n"
            + "the CLIPBOARD selection and screenshot tools' windows. At the first signal it records the\n"
            + "windows and grabs the screen; the real screenshot replaces that fallback when it can be\n"
            + "placed on the screen. Guard (on unless --no-guard) rewrites a screenshot file that rules hit, in\n"
            + "place and in its own format, and serves the redacted image on the clipboard; a screenshot that\n"
            + "cannot be placed while a rule hit a window is quarantined ('shotguard quarantine').\n"
            + "While a program records or shares the screen (any program that reads it again: ffmpeg, OBS, a\n"
            + "browser sharing it), covers in the rules' fills hide what the rules protect inside what it\n"
            + "reads, from its first read until it stops (unless --no-shield). Shield (--shield) also hears\n"
            + "Print (and every --shield-key) with XInput raw events, without taking the key from anyone, and\n"
            + "maps the covers at once; they let clicks through and come down once the screenshot has\n"
            + "arrived, at most 3 s later.\n"
            + "SIGHUP reloads the regions file (keeping the old rules if the new\n"
            + "file is invalid); SIGINT and SIGTERM stop after the report in hand.\n\n"
            + "Each --report-to gets every report: sentry:DSN posts a Sentry envelope (an event, the redacted image\n"
            + "and report.json as attachments) to the DSN's project; an https:// (or http://) URL gets a\n"
            + "multipart/form-data POST with the parts 'report' (JSON) and 'image' (PNG); exec:CMD runs CMD as\n"
            + "--exec does. Reports are queued in $XDG_STATE_HOME/shotguard/outbox before any attempt, marked sent\n"
            + "only on a 2xx answer (exit 0 for exec:), and retried with backoff (a Retry-After is honoured)\n"
            + "across restarts; 'shotguard reports list' shows their state and 'reports send' retries now.\n\n"
            + "Settings: each line 'key = value' of $XDG_CONFIG_HOME/shotguard/agent.conf is one of these\n"
            + "long options ('shield = true', 'dir = ~/Shots', 'notify = false'); options given here win\n"
            + "(see shotguard-agent.conf(5)).",
        examples: ["shotguard watch --shield --exec 'notify-send \"$SHOTGUARD_IMAGE\"'",
                   "shotguard watch --report-to sentry:https://KEY@sentry.example.com/42",
                   "shotguard watch --report-to https://example.com/hook --report-header-file FILE"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("watch: takes no arguments") }
        let settings = try AgentConfig.read(path: arguments.value("config"), spec: spec)
        let options = try settings.convert(arguments, options(from:))
        let agent: Agent
        do throws(AgentError) {
            agent = try Agent(options: options)
        } catch {
            throw error.isUsage ? .usage(error.message) : .failure(error.message)
        }
        let code = agent.run()
        if code != 0 { throw .failure("the agent stopped with an error (see the log above)") }
    }

    /// The agent's options from the command line and the settings file together: every value
    /// checked here, so a bad one in the file is named by its line.
    static func options(from arguments: ParsedArguments) throws(CLIError) -> AgentOptions {
        var options = AgentOptions()
        options.regionsPath = arguments.value("regions")
        options.folders = arguments.all("dir")
        options.toolClasses = arguments.all("tool-class")
        options.spoolFolder = arguments.value("spool")
        options.keepReports = try keepReports(arguments)
        options.keepFor = try keepFor(arguments)
        options.keepUnredacted = arguments.has("keep-unredacted")
        options.notify = !arguments.has("no-notify")
        options.tray = !arguments.has("no-tray")
        options.indicator = !arguments.has("no-indicator")
        options.execCommand = arguments.value("exec")
        options.delivery = try ReportOptions.parse(arguments)
        options.printJSON = arguments.has("json")
        options.once = arguments.has("once")
        options.verbose = arguments.has("verbose")
        options.useSharedMemory = !arguments.has("no-shm")
        options.compressionLevel = try arguments.compressionLevel(default: 1)
        options.watchFiles = !arguments.has("no-files")
        options.watchClipboard = !arguments.has("no-clipboard")
        options.watchTools = !arguments.has("no-tools")
        options.guarding = !arguments.has("no-guard")
        if !options.guarding { try RegionsLoader.refuseUnderLock("watch --no-guard") }
        options.shield = arguments.has("shield")
        options.shieldRecordings = !arguments.has("no-shield")
        if !options.shieldRecordings { try RegionsLoader.refuseUnderLock("watch --no-shield") }
        options.shieldKeys = try shieldKeys(arguments, shielding: options.shield)
        options.readAhead = !arguments.has("no-read-ahead")
        options.version = Commands.version
        return options
    }

    /// `--shield-key KEYSYM`: X keysym names (as `xev` shows them), only with `--shield`.
    private static func shieldKeys(_ arguments: ParsedArguments, shielding: Bool) throws(CLIError) -> [String] {
        let keys = arguments.all("shield-key")
        if !keys.isEmpty, !shielding { throw .usage("watch: --shield-key needs --shield") }
        for key in keys where RawKeys.keysym(named: key) == nil {
            throw .usage("watch: --shield-key: unknown keysym '\(key.escapingControlCharacters())' "
                + "(expected an X keysym name such as Print, F12 or s)")
        }
        return keys
    }

    /// `--keep-for DURATION`: how long reports stay; `forever` keeps them whatever their age.
    private static func keepFor(_ arguments: ParsedArguments) throws(CLIError) -> Double? {
        guard let text = arguments.value("keep-for") else { return AgentOptions().keepFor }
        if text == "forever" { return nil }
        guard let seconds = DurationText.seconds(text) else {
            throw .usage("watch: --keep-for: '\(text.escapingControlCharacters())' is not a duration (expected a number of days, "
                + "hours, minutes or seconds such as 7d, 12h or 30m, or 'forever')")
        }
        return seconds
    }

    /// `--keep N`: a whole number of reports, at least one.
    private static func keepReports(_ arguments: ParsedArguments) throws(CLIError) -> Int {
        guard let text = arguments.value("keep") else { return AgentOptions().keepReports }
        guard let number = Int(text), number >= 1 else {
            throw .usage("watch: --keep: '\(text)' is not a number of reports (expected a whole number of at least 1, like --keep 500)")
        }
        return number
    }
}
