// What the built binary says about itself: its commands and options, read from `--help`.
import Foundation
import ShotguardTestSupport
import XCTest

/// One option as a help text's "Options:" section lists it: `-o, --output FILE`.
struct HelpOption: Hashable {
    var long: String
    var short: String?
    /// The value's placeholder (`FILE`), or nil for a flag.
    var placeholder: String?

    var takesValue: Bool { placeholder != nil }
    /// `--output`, and `-o` when it has a short form.
    var names: [String] { (short.map { ["-\($0)"] } ?? []) + ["--\(long)"] }
    /// The option as help writes it, and as the man page must write it too.
    var form: String { (short.map { "-\($0), " } ?? "") + "--\(long)" + (placeholder.map { " \($0)" } ?? "") }
}

/// One command (`capture`, `regions check`, or `""` for the options before a command).
struct HelpCommand {
    var name: String
    var options: [HelpOption]

    var words: [String] { name.split(separator: " ").map(String.init) }
    var optionNames: Set<String> { Set(options.flatMap(\.names)) }
    var label: String { name.isEmpty ? "shotguard" : "shotguard \(name)" }
}

/// Everything `shotguard --help` and `shotguard COMMAND --help` list.
struct ShotguardHelp {
    /// The options taken before a command.
    var root: HelpCommand
    /// The subcommands, in help's order.
    var commands: [HelpCommand]
    /// The exit codes that the root help's "Exit status:" line names.
    var exitCodes: [Int]

    /// The root and every subcommand.
    var all: [HelpCommand] { [root] + commands }
    /// Every option name that any command has.
    var allOptionNames: Set<String> { Set(all.flatMap(\.optionNames)) }
    /// The first words of the commands (`capture`, `regions`).
    var firstWords: Set<String> { Set(commands.compactMap(\.words.first)) }

    /// The second words of the commands that begin with `first` (`check`, `show` for `regions`).
    func secondWords(after first: String) -> Set<String> {
        Set(commands.filter { $0.words.count == 2 && $0.words[0] == first }.map(\.words[1]))
    }

    /// Runs the built binary for its help texts.
    static func read(file: StaticString = #filePath, line: UInt = #line) throws -> ShotguardHelp {
        let binary = try shotguardBinary(file: file, line: line)
        let folder = try TemporaryFolder(label: "help")
        defer { folder.remove() }
        let home = folder.url
        func help(_ words: [String]) throws -> String {
            let result = try runProgram(binary, words + ["--help"], environment: testEnvironment(home: home), file: file, line: line)
            XCTAssertEqual(result.status, 0, "shotguard \(words.joined(separator: " ")) --help failed: \(result.stderr)",
                           file: file, line: line)
            return result.stdoutText
        }

        let rootText = try help([])
        let names = section("Commands:", of: rootText).filter { !isContinuation($0) }.map { entry in
            // The name ends where the padding before the summary begins (two spaces or more).
            String(entry.trimmingCharacters(in: .whitespaces).split(separator: "  ", maxSplits: 1)[0])
        }
        XCTAssertFalse(names.isEmpty, "shotguard --help lists no commands:\n\(rootText)", file: file, line: line)
        var commands: [HelpCommand] = []
        for name in names {
            let words = name.split(separator: " ").map(String.init)
            commands.append(HelpCommand(name: name, options: try options(of: help(words), command: name, file: file, line: line)))
        }
        let root = HelpCommand(name: "", options: try options(of: rootText, command: "", file: file, line: line))
        let codes = rootText.firstMatch(of: /Exit status: (.*)/).map { match in
            match.1.matches(of: #/(\d+) /#).compactMap { Int($0.1) }
        } ?? []
        XCTAssertFalse(codes.isEmpty, "shotguard --help names no exit codes:\n\(rootText)", file: file, line: line)
        return ShotguardHelp(root: root, commands: commands, exitCodes: codes)
    }

    /// A line that goes on with the help of the entry above it (indented past any entry's start).
    private static func isContinuation(_ line: String) -> Bool { line.hasPrefix("        ") }

    /// The lines of a help section: those after `title` up to the next blank line.
    private static func section(_ title: String, of text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: title) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
    }

    private static func options(of text: String, command: String, file: StaticString, line: UInt) throws -> [HelpOption] {
        let entries = section("Options:", of: text).filter { !isContinuation($0) }
        XCTAssertFalse(entries.isEmpty, "shotguard \(command) --help has no Options: section:\n\(text)", file: file, line: line)
        var options: [HelpOption] = []
        for entry in entries {
            // `  -o, --output FILE         Help.` or `      --screen              Help.`
            guard let match = entry.wholeMatch(of: /\s+(?:-([A-Za-z0-9]), )?--([a-z0-9][a-z0-9-]*)(?: (\S+))?(?:\s{2,}.*)?/) else {
                XCTFail("cannot read this option line of 'shotguard \(command) --help': '\(entry)'", file: file, line: line)
                continue
            }
            options.append(HelpOption(long: String(match.2), short: match.1.map(String.init), placeholder: match.3.map(String.init)))
        }
        return options
    }
}

/// Every `--name` written in `text` (not `--` alone, nor the `--` inside `a--b`).
func longOptionNames(in text: String) -> Set<String> {
    var names: Set<String> = []
    for match in text.matches(of: /--[a-z][a-z0-9-]*/) {
        if match.range.lowerBound > text.startIndex {
            let before = text[text.index(before: match.range.lowerBound)]
            if before.isLetter || before.isNumber || before == "-" { continue }
        }
        names.insert(String(match.0))
    }
    return names
}
