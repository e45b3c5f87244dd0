// The agent's configuration file: each `key = value` line is one of watch's long options, read
// with the same spec the command line is parsed with.
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardRegions

/// `$XDG_CONFIG_HOME/shotguard/agent.conf` (shotguard-agent.conf(5)). It names no option itself:
/// every long option of `spec` is a key, so an option added to `watch` is a setting at once.
/// A flag takes `true` or `false`; `KEY = false` where only `--no-KEY` exists sets that one
/// (`notify = false` is `--no-notify`), as does `false` on a flag that has a `--no-` twin. A
/// repeatable option repeats its line. Options given on the command line win over the file's.
struct AgentConfig {
    /// One setting: the option it stands for, its value (nil for a flag) and where it was written.
    struct Entry {
        let option: OptionSpec
        let value: String?
        let line: Int
        /// The column of the key, for errors about the setting.
        let column: Int
        /// The column of the value, for errors about the value.
        let valueColumn: Int
    }

    let path: String
    let entries: [Entry]

    /// The options that are not settings: they say how to read settings, or end the command.
    static let excluded: Set<String> = ["help", "config"]
    /// A file larger than this is not a configuration file.
    static let maximumSize = 64 * 1024

    /// `$XDG_CONFIG_HOME/shotguard/agent.conf`, else `~/.config/shotguard/agent.conf`.
    static var defaultPath: String { XDGPaths.configHome() + "/shotguard/agent.conf" }

    /// Reads `path` (the default file when nil): a missing default file is no settings; a named
    /// file that is missing, a file that cannot be read or that has an error is a usage error
    /// naming `file:line:column` and what was expected.
    static func read(path explicit: String?, spec: CommandSpec) throws(CLIError) -> AgentConfig {
        let path = explicit ?? defaultPath
        var status = stat()
        if explicit == nil, stat(path, &status) != 0, errno == ENOENT { return AgentConfig(path: path, entries: []) }
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try FileIO.read(path, limit: maximumSize)
        } catch {
            throw .usage("cannot read the agent's settings: \(error) (see shotguard-agent.conf(5))")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .usage("\(path): the agent's settings are not UTF-8 text")
        }
        return try parse(text, path: path, spec: spec)
    }

    /// Parses the settings of `text`, checking each key against `spec` and each flag's value.
    static func parse(_ text: String, path: String, spec: CommandSpec) throws(CLIError) -> AgentConfig {
        var entries: [Entry] = []
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, line) in lines.enumerated() {
            let number = index + 1
            func fail(_ column: Int, _ message: String) -> CLIError {
                .usage("\(path):\(number):\(column): \(message)")
            }
            let characters = Array(line)
            guard let start = characters.firstIndex(where: { $0 != " " && $0 != "\t" }), characters[start] != "#" else {
                continue
            }
            guard let equals = characters.firstIndex(of: "=") else {
                throw fail(start + 1, "expected 'key = value' (a long option of 'shotguard watch', e.g. 'shield = true')")
            }
            let key = String(characters[start..<equals]).trimmingBlanks
            guard !key.isEmpty else { throw fail(start + 1, "a setting needs a key before '='") }
            let valueStart = characters[(equals + 1)...].firstIndex { $0 != " " && $0 != "\t" } ?? characters.count
            let rawValue = String(characters[valueStart...]).trimmingBlanks
            let value: String
            switch unquote(rawValue) {
            case .success(let text): value = text
            case .failure(let error): throw fail(valueStart + 1, error.message)
            }
            let setting = try resolve(key: key, value: value, spec: spec, fail: { fail($0 == .key ? start + 1 : valueStart + 1, $1) })
            guard let setting else { continue }
            if !setting.option.repeatable, let first = entries.first(where: { $0.option.long == setting.option.long }) {
                throw fail(start + 1, "'\(key)' is set twice (first at line \(first.line)); "
                    + "only repeatable options (\(repeatableNames(spec))) take several lines")
            }
            let expanded = setting.value.map { expand($0, placeholder: setting.option.value, relativeTo: path) }
            entries.append(Entry(option: setting.option, value: expanded, line: number, column: start + 1, valueColumn: valueStart + 1))
        }
        return AgentConfig(path: path, entries: entries)
    }

    private enum Part { case key, value }

    /// The option a key and value stand for; nil for a flag set to false (nothing to pass).
    private static func resolve(key: String, value: String, spec: CommandSpec,
                                fail: (Part, String) -> CLIError) throws(CLIError) -> (option: OptionSpec, value: String?)? {
        let option = excluded.contains(key) ? nil : spec.option(named: key)
        let negation = excluded.contains("no-" + key) ? nil : spec.option(named: "no-" + key).flatMap { $0.takesValue ? nil : $0 }
        guard let option = option ?? negation.map({ _ in OptionSpec(key, help: "") }) else {
            let names = settingNames(spec)
            let close = CloseNames.close(to: key, among: names)
            throw fail(.key, "unknown setting '\(key.excerpt())' (expected a long option of 'shotguard watch'"
                + (close.isEmpty ? ", see shotguard-agent.conf(5))" : ": did you mean \(close.prefix(3).joined(separator: " or "))?)"))
        }
        if option.takesValue {
            guard !value.isEmpty else { throw fail(.value, "'\(key)' needs a value (\(option.value!))") }
            return (option, value)
        }
        guard let on = ["true": true, "false": false][value] else {
            throw fail(.value, "'\(key)' is true or false, not '\(value.excerpt())'")
        }
        if spec.option(named: key) == nil {
            // Only --no-KEY exists: KEY = false sets it, KEY = true is the default.
            return on ? nil : (negation!, nil)
        }
        if on { return (option, nil) }
        return negation.map { ($0, nil) }
    }

    /// Leading `~/` is the home folder, and a relative FILE or DIR is taken from the file's
    /// folder: the agent's working folder is not the user's.
    private static func expand(_ value: String, placeholder: String?, relativeTo path: String) -> String {
        guard placeholder == "FILE" || placeholder == "DIR" else { return value }
        if value == "~" || value.hasPrefix("~/") { return (XDGPaths.home() ?? "") + value.dropFirst() }
        guard !value.hasPrefix("/"), let slash = path.lastIndex(of: "/") else { return value }
        return String(path[..<slash]) + "/" + value
    }

    /// A value in double quotes keeps its blanks; `\"` and `\\` stand for a quote and a backslash.
    private static func unquote(_ text: String) -> Result<String, QuoteError> {
        guard text.hasPrefix("\"") else { return .success(text) }
        var result = ""
        var escaped = false
        var characters = text.dropFirst()
        while let character = characters.popFirst() {
            if escaped {
                if character != "\"" && character != "\\" { result.append("\\") }
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                guard characters.allSatisfy({ $0 == " " || $0 == "\t" }) else {
                    return .failure(QuoteError(message: "nothing may follow the closing quote of a value"))
                }
                return .success(result)
            } else {
                result.append(character)
            }
        }
        return .failure(QuoteError(message: "the quote that opens this value is not closed"))
    }

    private struct QuoteError: Error { let message: String }

    /// Every key a file may use: the long options, and the names `--no-` options negate.
    static func settingNames(_ spec: CommandSpec) -> [String] {
        spec.options.map(\.long).filter { !excluded.contains($0) }
            + spec.options.filter { $0.long.hasPrefix("no-") && !$0.takesValue }.map { String($0.long.dropFirst(3)) }
    }

    private static func repeatableNames(_ spec: CommandSpec) -> String {
        spec.options.filter(\.repeatable).map(\.long).joined(separator: ", ")
    }
}

extension AgentConfig {
    /// The file's settings under the command line's: an option given on the command line (or its
    /// `--no-` twin) replaces the file's lines for it.
    func merged(under commandLine: ParsedArguments) -> ParsedArguments {
        var merged = ParsedArguments()
        merged.positionals = commandLine.positionals
        let given = Set(commandLine.flags).union(commandLine.values.keys)
        for entry in entries where !overridden(entry.option.long, by: given) {
            if let value = entry.value {
                merged.values[entry.option.long, default: []].append(value)
            } else {
                merged.flags.insert(entry.option.long)
            }
        }
        for (long, values) in commandLine.values { merged.values[long] = values }
        merged.flags.formUnion(commandLine.flags)
        return merged
    }

    private func overridden(_ long: String, by given: Set<String>) -> Bool {
        let base = long.hasPrefix("no-") ? String(long.dropFirst(3)) : long
        return given.contains(base) || given.contains("no-" + base)
    }

    /// The arguments of one setting alone, to find the line a value's error belongs to.
    func arguments(of entry: Entry) -> ParsedArguments {
        var arguments = ParsedArguments()
        if let value = entry.value { arguments.values[entry.option.long] = [value] } else { arguments.flags = [entry.option.long] }
        return arguments
    }

    /// Runs `convert` on the merged arguments; when it refuses a value (a usage error), the
    /// setting whose value alone gets the same refusal is named by its file, line and column.
    func convert<T>(_ commandLine: ParsedArguments, _ convert: (ParsedArguments) throws(CLIError) -> T) throws(CLIError) -> T {
        do throws(CLIError) {
            return try convert(merged(under: commandLine))
        } catch where error.code == .usage {
            let given = Set(commandLine.flags).union(commandLine.values.keys)
            for entry in entries where !overridden(entry.option.long, by: given) {
                do throws(CLIError) {
                    _ = try convert(arguments(of: entry))
                } catch let alone where alone.message == error.message {
                    let message = error.message.hasPrefix("watch: ") ? String(error.message.dropFirst(7)) : error.message
                    throw .usage("\(path):\(entry.line):\(entry.value == nil ? entry.column : entry.valueColumn): \(message)")
                } catch {
                    continue
                }
            }
            throw error
        }
    }
}

extension StringProtocol {
    /// Without the spaces and tabs at either end.
    var trimmingBlanks: String {
        let characters = Array(self)
        guard let first = characters.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = characters.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(characters[first...last])
    }
}
