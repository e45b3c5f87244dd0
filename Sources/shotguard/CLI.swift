// The one exit path: picks the subcommand, runs it, prints errors, returns the exit code.
import ShotguardBase
import ShotguardImaging

enum CLI {
    /// Runs the command line and returns the exit code: that of the command, or 1 when a result
    /// it printed could not be written.
    static func run(_ arguments: [String]) -> ExitCode {
        let code = dispatch(arguments)
        if let failure = Console.takeOutputFailure() {
            Console.error("shotguard: \(failure.description.escapingControlCharacters())\n")
            return code == .success ? .failure : code
        }
        return code
    }

    private static func dispatch(_ arguments: [String]) -> ExitCode {
        let root = Commands.root
        guard let first = arguments.first else {
            Console.error(root.helpText)
            return .usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            let words = Array(arguments.dropFirst())
            if words.isEmpty {
                Console.output(root.helpText)
                return .success
            }
            if words.count == 1, let group = groupHelp(words[0]) {
                Console.output(group)
                return .success
            }
            guard let topic = Commands.find(words)?.command.spec else {
                Console.error("shotguard: unknown command '\(printable(words.joined(separator: " ")))' (see 'shotguard --help')\n")
                return .usage
            }
            Console.output(topic.helpText)
            return .success
        }
        // scrot and maim print their version for -v; -V is the other common spelling.
        if first == "--version" || first == "-v" || first == "-V" {
            Console.output("shotguard \(Commands.version)\n")
            return .success
        }
        if first.hasPrefix("-") {
            Console.error("shotguard: unknown option '\(printable(first))' (see 'shotguard --help')\n")
            return .usage
        }
        if let members = groupMembers(first), Commands.find(arguments) == nil {
            // `GROUP --help` asks for the commands of the group, as `help GROUP` does.
            if arguments.count == 2, arguments[1] == "--help" || arguments[1] == "-h" {
                Console.output(groupHelp(first) ?? "")
                return .success
            }
            let known = String(listing: members)
            let wanted = arguments.dropFirst().first.map { "unknown \(first) command '\(printable($0))'" } ?? "\(first) needs a command"
            Console.error("shotguard: \(wanted) (expected \(known); see 'shotguard \(first) --help')\n")
            return .usage
        }
        guard let (command, wordCount) = Commands.find(arguments) else {
            let names = Commands.specs.map { $0.name.split(separator: " ")[0] }
            let known = Array(Set(names)).sorted().joined(separator: ", ")
            Console.error("shotguard: unknown command '\(printable(first))' (expected one of: \(known))\n")
            return .usage
        }
        do throws(CLIError) {
            let parsed = try command.spec.parse(Array(arguments.dropFirst(wordCount)))
            if parsed.has("help") {
                Console.output(command.spec.helpText)
                return .success
            }
            try command.run(parsed)
            return .success
        } catch {
            // Messages quote paths, titles and words of the regions file: escaped, one line.
            if !error.message.isEmpty { Console.error("shotguard: \(error.message.escapingControlCharacters())\n") }
            return error.code
        }
    }
}

extension CLI {
    /// The second words of the commands named `group` and another word (`check`, `show` for
    /// `regions`), in help's order; nil when `group` names no such group.
    static func groupMembers(_ group: String) -> [String]? {
        let members = Commands.specs.compactMap { spec -> String? in
            let words = spec.name.split(separator: " ")
            return words.count == 2 && words[0] == group ? String(words[1]) : nil
        }
        return members.isEmpty ? nil : members
    }

    /// The help of every command of `group`, one after the other; nil when it is not a group.
    static func groupHelp(_ group: String) -> String? {
        guard groupMembers(group) != nil else { return nil }
        return Commands.specs.filter { $0.name.hasPrefix(group + " ") }.map(\.helpText).joined(separator: "\n")
    }

    /// A word from the command line, quoted in an error: escaped, and cut when very long.
    static func printable(_ word: String) -> String { word.excerpt().escapingControlCharacters() }
}

/// Standard output for results, standard error for diagnostics.
///
/// A result that cannot be written (standard output on a full disk, a closed descriptor) must
/// not end in exit 0: the first such failure is kept, and `CLI.run` turns it into exit 1 once
/// the command returns. Printing goes on as if it had worked, so a command does not need a
/// `try` at each line. A diagnostic that cannot be written has nowhere left to go.
enum Console {
    /// The first failed write of a result; only `output` sets it, only `takeOutputFailure` reads it.
    nonisolated(unsafe) private static var outputFailure: FileError?

    static func output(_ text: String) {
        do throws(FileError) {
            try FileDescriptor.standardOutput.writeAll(text)
        } catch {
            if outputFailure == nil { outputFailure = error }
        }
    }

    static func error(_ text: String) { try? FileDescriptor.standardError.writeAll(text) }

    /// The first result that could not be written, once.
    static func takeOutputFailure() -> FileError? {
        defer { outputFailure = nil }
        return outputFailure
    }
}
