// `shotguard completions bash|zsh|fish`: the shell completion written from the command model.

enum CompletionsCommand: Subcommand {
    static let shells = ["bash", "zsh", "fish"]

    static let spec = CommandSpec(
        name: "completions", summary: "print the completion script for bash, zsh or fish",
        arguments: "SHELL",
        options: [.help],
        details: "The script completes every command, option and value the commands themselves describe: files,\n"
            + "folders, window ids (shotguard windows --ids), monitor names, formats, fills, keys. The files\n"
            + "in the source tree's completions/ folder are this output ('make completions' writes them).",
        examples: ["shotguard completions fish > ~/.config/fish/completions/shotguard.fish"],
        operand: .words(shells))

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.count == 1, let shell = arguments.positionals.first, shells.contains(shell) else {
            let given = arguments.positionals.first.map { "'\(CLI.printable($0))'" } ?? "nothing"
            throw .usage("completions: expected one shell, bash, zsh or fish (got \(given))")
        }
        let model = CompletionModel.current
        switch shell {
        case "bash": Console.output(model.bash)
        case "zsh": Console.output(model.zsh)
        default: Console.output(model.fish)
        }
    }
}
