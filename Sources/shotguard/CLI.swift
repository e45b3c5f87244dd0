// The one exit path: picks the subcommand, runs it, prints errors, returns the exit code.
@preconcurrency import Glibc
import ShotguardImaging

enum CLI {
    static func run(_ arguments: [String]) -> ExitCode {
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
            if words == ["regions"] {
                Console.output(regionsHelp)
                return .success
            }
            guard let topic = Commands.find(words)?.command.spec else {
                Console.error("shotguard: unknown command '\(printable(words.joined(separator: " ")))' (see 'shotguard --help')\n")
                return .usage
            }
            Console.output(topic.helpText)
            return .success
        }
        if first == "--version" {
            Console.output("shotguard \(Commands.version)\n")
            return .success
        }
        if first.hasPrefix("-") {
            Console.error("shotguard: unknown option '\(printable(first))' (see 'shotguard --help')\n")
            return .usage
        }
        if first == "regions", Commands.find(arguments) == nil {
            // `regions --help` asks for the commands of the group, as `help regions` does.
            if arguments.count == 2, arguments[1] == "--help" || arguments[1] == "-h" {
                Console.output(regionsHelp)
                return .success
            }
            let known = Commands.specs.filter { $0.name.hasPrefix("regions ") }.map { $0.name.dropFirst(8) }
            let wanted = arguments.dropFirst().first.map { "unknown regions command '\(printable($0))'" } ?? "regions needs a command"
            Console.error("shotguard: \(wanted) (expected \(known.joined(separator: " or ")); see 'shotguard --help')\n")
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
    /// The help of every `regions` command, one after the other.
    static var regionsHelp: String {
        Commands.specs.filter { $0.name.hasPrefix("regions ") }.map(\.helpText).joined(separator: "\n")
    }

    /// A word from the command line, quoted in an error: escaped, and cut when very long.
    static func printable(_ word: String) -> String { word.excerpt().escapingControlCharacters() }
}

/// Standard output for results, standard error for diagnostics.
enum Console {
    static func output(_ text: String) { write(text, to: STDOUT_FILENO) }
    static func error(_ text: String) { write(text, to: STDERR_FILENO) }

    private static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return }
            offset += count
        }
    }
}
