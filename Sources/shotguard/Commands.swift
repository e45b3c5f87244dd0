// The list of subcommands, in the order help shows them.

/// A subcommand: its description and the function that does its work.
protocol Subcommand {
    static var spec: CommandSpec { get }
    static func run(_ arguments: ParsedArguments) throws(CLIError)
}

enum Commands {
    static let version = "0.1.0"

    static let root = CommandSpec(
        name: "", summary: "notice screenshots on an X11 desktop and redact them before they leave",
        arguments: "COMMAND [OPTIONS]",
        options: [.help, OptionSpec("version", short: "v", help: "Print the version and exit (-V too).")],
        details: "Run 'shotguard COMMAND --help' (or 'shotguard help COMMAND') for the options of one command.\n\n"
            + "Exit status: 0 success, 1 runtime failure, 2 usage or regions-file error.",
        examples: ["shotguard capture --active -o ~/shot.png", "shotguard watch --verbose"])

    static var all: [any Subcommand.Type] { [
        AutostartCommand.self,
        CaptureCommand.self,
        CompletionsCommand.self,
        DemoCommand.self,
        DoctorCommand.self,
        MonitorsCommand.self,
        PauseCommand.self,
        ProtectCommand.self,
        QuarantineListCommand.self,
        QuarantineRestoreCommand.self,
        QuarantinePurgeCommand.self,
        RedactCommand.self,
        RegionsAddCommand.self,
        RegionsCheckCommand.self,
        RegionsShowCommand.self,
        ReportsFollowCommand.self,
        ReportsListCommand.self,
        ReportsPurgeCommand.self,
        ReportsSendCommand.self,
        ResumeCommand.self,
        ShieldCommand.self,
        StatusCommand.self,
        WatchCommand.self,
        WindowsCommand.self,
    ] }

    static var specs: [CommandSpec] { all.map { $0.spec } }

    /// What each group of commands is for, shown beside its name where the commands are listed
    /// (shell completion); a group missing here is shown by its commands' names.
    static let groupSummaries = [
        "regions": "add to, check or preview the regions file",
        "quarantine": "list, restore or purge the screenshots guard set aside",
        "reports": "list, send, follow or purge the reports the agent made",
    ]

    /// The subcommand named by the first one or two words, and how many words its name used.
    static func find(_ words: [String]) -> (command: any Subcommand.Type, wordCount: Int)? {
        for count in [2, 1] where words.count >= count {
            let name = words.prefix(count).joined(separator: " ")
            if let command = all.first(where: { $0.spec.name == name }) { return (command, count) }
        }
        return nil
    }
}
