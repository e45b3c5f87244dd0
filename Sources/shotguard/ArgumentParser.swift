// Parses a command's arguments against its spec: options, values and positional arguments.
import ShotguardImaging

/// The arguments of one command, by the option's long name.
struct ParsedArguments {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func value(_ option: String) -> String? { values[option]?.last }
    func all(_ option: String) -> [String] { values[option] ?? [] }
}

extension CommandSpec {
    var displayName: String { name.isEmpty ? "shotguard" : "shotguard \(name)" }

    /// The prefix of this command's error messages, after the `shotguard: ` that CLI adds.
    private var errorPrefix: String { name.isEmpty ? "" : "\(name): " }

    /// Parses `arguments` (the words after the command's name). Unknown options, missing values
    /// and repeated single options are usage errors that say what to type instead.
    func parse(_ arguments: [String]) throws(CLIError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                parsed.positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name = word
            var inlineValue: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let option = lookup(name) else {
                throw .usage("\(errorPrefix)unknown option '\(name.excerpt())' (see '\(displayName) --help')")
            }
            guard option.takesValue else {
                if inlineValue != nil { throw .usage("\(errorPrefix)--\(option.long) takes no value") }
                parsed.flags.insert(option.long)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw .usage("\(errorPrefix)--\(option.long) needs a value (\(option.value!))")
                }
                value = arguments[index]
                index += 1
            }
            if !option.repeatable, parsed.values[option.long] != nil {
                throw .usage("\(errorPrefix)--\(option.long) given twice")
            }
            parsed.values[option.long, default: []].append(value)
        }
        return parsed
    }

    private func lookup(_ word: String) -> OptionSpec? {
        if word.hasPrefix("--") { return option(named: String(word.dropFirst(2))) }
        guard word.count == 2, let letter = word.last else { return nil }
        return options.first { $0.short == letter }
    }
}

extension ParsedArguments {
    /// `--compression N` as a level 0-9, or the default.
    func compressionLevel(default level: Int) throws(CLIError) -> Int {
        guard let text = value("compression") else { return level }
        guard let number = Int(text), (0...9).contains(number) else {
            throw .usage("--compression: '\(text.excerpt())' is not a level (expected a number from 0 to 9)")
        }
        return number
    }

    /// At most one of the options `longs` (flags or with values): `windows --json --ids` asks for
    /// two outputs at once, and neither may win in silence.
    func atMostOne(of longs: [String], for command: CommandSpec) throws(CLIError) {
        let given = longs.filter { has($0) || value($0) != nil }
        guard given.count > 1 else { return }
        throw .usage("\(command.name): \(given.map { "--" + $0 }.joined(separator: " and ")) do not go together (choose one)")
    }

    /// The single required `-o FILE`: a regular file, a new name or `-` (see `OutputPath`).
    func output(for command: CommandSpec) throws(CLIError) -> String {
        guard let path = value("output") else {
            throw .usage("\(command.name): missing -o FILE (use -o - for standard output)")
        }
        try OutputPath.check(path, option: "\(command.name) -o")
        return path
    }
}
