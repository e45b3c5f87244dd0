// `shotguard quarantine list|restore|purge`: the originals guard set aside, and getting them back.
import Glibc
import ShotguardBase
import ShotguardAgent
import ShotguardImaging

enum QuarantineListCommand: Subcommand {
    static let spec = CommandSpec(
        name: "quarantine list", summary: "list the screenshots guard set aside",
        arguments: "",
        options: [OptionSpec("json", help: "Print one JSON object per entry, one per line."), .help],
        details: "Guard quarantines a screenshot it could not place on the screen while a rule hit a window:\n"
            + "the original goes to $XDG_STATE_HOME/shotguard/quarantine/ID/ and the redacted fallback takes\n"
            + "its place. Each line shows the ID, when, the size, the path it came from, and why.")

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("quarantine list: takes no arguments") }
        let store = QuarantineStore()
        let entries = store.list()
        if arguments.has("json") {
            Console.output(entries.map { QuarantineStore.json($0).text + "\n" }.joined())
            return
        }
        guard !entries.isEmpty else {
            Console.output("no quarantined screenshots in \(store.folder)\n")
            return
        }
        for entry in entries {
            Console.output("\(entry.id)  \(Log.iso8601(entry.time))  \(entry.size) bytes  "
                + "\(escaped(entry.originalPath))  (\(escaped(entry.reason)))\n")
        }
    }
}

enum QuarantineRestoreCommand: Subcommand {
    static let spec = CommandSpec(
        name: "quarantine restore", summary: "put back the original of a quarantined screenshot",
        arguments: "ID",
        options: [OptionSpec("output", short: "o", value: "PATH",
                             help: "Write the original to PATH instead of the path it was taken from."),
                  .help],
        details: "Writes the original, unredacted bytes, deliberately: without -o they replace the redacted\n"
            + "fallback at the path the screenshot was taken from. The entry stays in quarantine until\n"
            + "'shotguard quarantine purge'.")

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.count == 1 else {
            throw .usage("quarantine restore: expected one ID (see 'shotguard quarantine list')")
        }
        let store = QuarantineStore()
        let entry: QuarantineEntry
        let bytes: [UInt8]
        do throws(QuarantineError) {
            entry = try store.entry(arguments.positionals[0])
            bytes = try store.originalBytes(of: entry)
        } catch {
            throw .failure(error.description)
        }
        let target = arguments.value("output") ?? String(decoding: entry.originalPathBytes, as: UTF8.self)
        do throws(FileError) {
            try FileIO.writeAtomically(bytes, to: target, mode: 0o600)
        } catch {
            throw .failure(error.description)
        }
        Console.error("restored \(entry.id) (\(bytes.count) bytes) to \(escaped(target))\n")
    }
}

enum QuarantinePurgeCommand: Subcommand {
    static let spec = CommandSpec(
        name: "quarantine purge", summary: "delete quarantined originals",
        arguments: "",
        options: [OptionSpec("older-than", value: "DAYS", help: "Delete only entries older than DAYS days."), .help],
        details: "Without --older-than, every entry is deleted. The originals show what the rules were meant\n"
            + "to hide: nothing else keeps a copy.")

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("quarantine purge: takes no arguments") }
        var cutoff = Double.infinity
        if let text = arguments.value("older-than") {
            guard let days = Double(text), days >= 0, days.isFinite else {
                throw .usage("quarantine purge: --older-than takes a number of days, such as 30 (got '\(text)')")
            }
            cutoff = Double(time(nil)) - days * 86_400
        }
        let store = QuarantineStore()
        let doomed = store.list().filter { $0.time < cutoff }
        for entry in doomed { store.remove(entry) }
        Console.error("deleted \(doomed.count) quarantined screenshots from \(store.folder)\n")
    }
}

/// Text for a terminal, escaped as every other line shotguard prints.
private func escaped(_ text: String) -> String { text.escapingControlCharacters() }
