// `shotguard quarantine list|restore|purge`: the originals guard set aside, and getting them back.
import Glibc
import ShotguardBase
import ShotguardAgent
import ShotguardImaging

enum QuarantineListCommand: Subcommand {
    static let spec = CommandSpec(
        name: "quarantine list", summary: "list the screenshots guard set aside",
        arguments: "",
        options: [OptionSpec("json", help: "Print one JSON array of the entries."), .help],
        details: "Guard quarantines a screenshot it could not place on the screen while a rule hit a window:\n"
            + "the original goes to $XDG_STATE_HOME/shotguard/quarantine/ID/ and the redacted fallback takes\n"
            + "its place. Each line shows the ID, when, the size, the path it came from, and why; an entry\n"
            + "whose entry.json cannot be read is listed with the reason, since its original may be there.",
        examples: ["shotguard quarantine list --json | jq -r '.[].id'"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("quarantine list: takes no arguments") }
        let store = QuarantineStore()
        let (entries, unreadable) = store.scan()
        if arguments.has("json") {
            Console.output(JSON.array(entries.map(QuarantineStore.json) + unreadable.map(QuarantineStore.json)).text + "\n")
            return
        }
        guard !entries.isEmpty || !unreadable.isEmpty else {
            Console.output("no quarantined screenshots in \(store.folder)\n")
            return
        }
        for entry in entries {
            Console.output("\(entry.id)  \(Log.iso8601(entry.time))  \(entry.size) bytes  "
                + "\(escaped(entry.originalPath))  (\(escaped(entry.reason)))\n")
        }
        for entry in unreadable {
            Console.output("\(entry.id)  unreadable: \(escaped(entry.reason)); look in \(escaped(entry.folder))\n")
        }
    }
}

enum QuarantineRestoreCommand: Subcommand {
    static let spec = CommandSpec(
        name: "quarantine restore", summary: "put back the original of a quarantined screenshot",
        arguments: "ID",
        options: [OptionSpec("output", short: "o", value: "PATH",
                             help: "Write the original to PATH instead of the path it was taken from."),
                  OptionSpec("force", help: "Replace a file at the path that guard did not leave there."),
                  .help],
        details: "Writes the original, unredacted bytes, deliberately: without -o they replace the redacted\n"
            + "fallback at the exact path the screenshot was taken from, with its mode. A file there that\n"
            + "is newer, or not the one guard left, is kept unless --force is given. The agent leaves the\n"
            + "restored file alone. The entry stays in quarantine until 'shotguard quarantine purge'.",
        examples: ["shotguard quarantine restore 20261129-140703-120-1 -o ~/original.png"],
        operand: .quarantineIDs)

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.count == 1 else {
            throw .usage("quarantine restore: expected one ID (see 'shotguard quarantine list')")
        }
        let output = arguments.value("output")
        if let output {
            guard output != "-" else { throw .usage("quarantine restore: -o takes a path; the original is not written to standard output") }
            try OutputPath.check(output, option: "quarantine restore -o")
        }
        let store = QuarantineStore()
        do throws(QuarantineError) {
            let entry = try store.entry(arguments.positionals[0])
            let path = try store.restore(entry, to: output.map { BytePath($0) }, force: arguments.has("force"))
            Console.error("restored \(entry.id) (\(entry.size) bytes) to \(escaped(path.description))\n")
        } catch {
            switch error.kind {
            case .notARegularFile: throw .usage(error.description)
            case .failure, .unknownEntry, .wouldOverwrite: throw .failure(error.description)
            }
        }
    }
}

enum QuarantinePurgeCommand: Subcommand {
    static let spec = CommandSpec(
        name: "quarantine purge", summary: "delete quarantined originals",
        arguments: "",
        options: [OptionSpec("older-than", value: "DURATION",
                             help: "Delete only entries older than DURATION (7d, 12h; a bare number is days)."), .help],
        details: "Without --older-than, every entry is deleted, unreadable ones too. The originals show what\n"
            + "the rules were meant to hide: nothing else keeps a copy.",
        examples: ["shotguard quarantine purge --older-than 30"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("quarantine purge: takes no arguments") }
        var cutoff = Double.infinity
        if let text = arguments.value("older-than") {
            // A bare number is days, as this option first took; else a duration like `reports purge`'s.
            guard let seconds = Double(text).map({ $0 * 86_400 }) ?? DurationText.seconds(text), seconds >= 0, seconds.isFinite else {
                throw .usage("quarantine purge: --older-than takes a duration such as 7d or 12h, or a number of days "
                    + "(got '\(text.escapingControlCharacters())')")
            }
            cutoff = Double(time(nil)) - seconds
        }
        let store = QuarantineStore()
        let (entries, unreadable) = store.scan()
        let doomed = entries.filter { $0.time < cutoff }
        for entry in doomed { store.remove(entry) }
        // An entry whose time cannot be read goes only when every entry does.
        let unreadableDoomed = cutoff == .infinity ? unreadable : []
        for entry in unreadableDoomed { store.remove(entry) }
        Console.error("deleted \(doomed.count + unreadableDoomed.count) quarantined screenshots from \(store.folder)\n")
    }
}

/// Text for a terminal, escaped as every other line shotguard prints.
private func escaped(_ text: String) -> String { text.escapingControlCharacters() }
