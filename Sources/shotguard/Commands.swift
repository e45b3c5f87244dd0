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
        options: [.help, OptionSpec("version", help: "Print the version and exit.")],
        details: "Run 'shotguard COMMAND --help' (or 'shotguard help COMMAND') for the options of one command.\n"
            + "Exit status: 0 success, 1 runtime failure, 2 usage or regions-file error.")

    static var all: [any Subcommand.Type] { [
        CaptureCommand.self,
        DemoCommand.self,
        MonitorsCommand.self,
        ProtectCommand.self,
        QuarantineListCommand.self,
        QuarantineRestoreCommand.self,
        QuarantinePurgeCommand.self,
        RedactCommand.self,
        RegionsCheckCommand.self,
        RegionsShowCommand.self,
        WatchCommand.self,
        WindowsCommand.self,
    ] }

    static var specs: [CommandSpec] { all.map { $0.spec } }

    /// The subcommand named by the first one or two words, and how many words its name used.
    static func find(_ words: [String]) -> (command: any Subcommand.Type, wordCount: Int)? {
        for count in [2, 1] where words.count >= count {
            let name = words.prefix(count).joined(separator: " ")
            if let command = all.first(where: { $0.spec.name == name }) { return (command, count) }
        }
        return nil
    }
}
