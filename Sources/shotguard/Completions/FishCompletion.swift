// The fish completions, written from the command model (`shotguard completions fish`).

extension CompletionModel {
    var fish: String {
        var lines = [
            "# fish completion for shotguard(1): subcommands, their options, and the options' values.",
            "# Written by 'shotguard completions fish' from the commands themselves: run",
            "# 'make completions' after changing one, rather than editing this file.",
            "# Installed as share/fish/vendor_completions.d/shotguard.fish.",
            "",
            "# Prints the command named so far: \"\", a command, a group, or a group and its command.",
            "# Commands come first, before any option.",
            "function __shotguard_command",
            "    set -l tokens (commandline -opc)",
            "    if test (count $tokens) -ge 2; and not string match -q -- '-*' $tokens[2]",
            "        if contains -- $tokens[2] \(groups.joined(separator: " ")); and test (count $tokens) -ge 3",
            "            echo \"$tokens[2] $tokens[3]\"",
            "        else",
            "            echo $tokens[2]",
            "        end",
            "    end",
            "end",
            "",
            "# Whether the command named so far is exactly $argv.",
            "function __shotguard_using",
            "    set -l command (__shotguard_command)",
            "    test \"$command\" = \"$argv\"",
            "end",
            "",
            "# The ids of the quarantined screenshots.",
            "function __shotguard_quarantine_ids",
            "    set -l shotguard (commandline -opc)[1]",
            "    command -q $shotguard; or return",
            "    command $shotguard quarantine list 2>/dev/null | string replace -r ' .*' ''",
            "end",
            "",
            "# The ids of the viewable windows; nothing when there is no display.",
            "function __shotguard_window_ids",
            "    set -l shotguard (commandline -opc)[1]",
            "    $shotguard windows --ids 2>/dev/null",
            "end",
            "",
            "# 'primary' and the monitors' names; only 'primary' when there is no display.",
            "function __shotguard_monitor_names",
            "    echo primary",
            "    set -l shotguard (commandline -opc)[1]",
            "    $shotguard monitors --names 2>/dev/null",
            "end",
            "",
            "complete -c shotguard -f",
            "",
            "# Commands and groups, and the options taken before a command.",
        ]
        for word in firstWords {
            lines.append("complete -c shotguard -n '__shotguard_using \"\"' -a \(word) -d \(fishQuote(sentence(summary(of: word))))")
        }
        lines += root.options.map { fishOption($0, in: "") }
        for group in groups {
            lines += ["", "# \(group)"]
            for member in members(of: group) ?? [] {
                let summary = commands.first { $0.name == "\(group) \(member)" }?.summary ?? member
                lines.append("complete -c shotguard -n '__shotguard_using \(group)' -a \(member) -d \(fishQuote(sentence(summary)))")
            }
        }
        for command in commands {
            lines += ["", "# \(command.name)"]
            if command.operand != .none {
                let what = command.arguments.split(separator: " ").first.map(String.init) ?? "argument"
                lines.append("complete -c shotguard -n \(fishCondition(command.name))\(fishValues(command.operand, operand: true))"
                    + " -d \(fishQuote(what))")
            }
            lines += command.options.map { fishOption($0, in: command.name) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One option of `command` ("" for the root).
    private func fishOption(_ option: OptionSpec, in command: String) -> String {
        var line = "complete -c shotguard -n \(fishCondition(command))"
        if let short = option.short { line += " -s \(short)" }
        line += " -l \(option.long)"
        if option.takesValue { line += fishValues(option.completion, operand: false) }
        return line + " -d \(fishQuote(option.help.hasSuffix(".") ? String(option.help.dropLast()) : option.help))"
    }

    /// `-n` for `command`, quoted for the shell: `__shotguard_using "regions show"`.
    private func fishCondition(_ command: String) -> String {
        command.isEmpty || command.contains(" ") ? "'__shotguard_using \"\(command)\"'" : "'__shotguard_using \(command)'"
    }

    /// What an option's value (or an operand) completes to: files (`-r -F`, or `-F` alone for
    /// an operand), or words, with `-x` for a value that takes no file.
    private func fishValues(_ completion: ValueCompletion, operand: Bool) -> String {
        let exclusive = operand ? "" : " -x"
        switch completion {
        case .none: return operand ? "" : " -x"
        case .file: return operand ? " -F" : " -r -F"
        case .folder: return exclusive + " -a '(__fish_complete_directories)'"
        case .command: return exclusive + " -a '(__fish_complete_command)'"
        case .words(let words): return exclusive + " -a " + fishQuote(words.joined(separator: " "))
        case .windowIDs: return exclusive + " -a '(__shotguard_window_ids)'"
        case .monitorNames: return exclusive + " -a '(__shotguard_monitor_names)'"
        case .quarantineIDs: return exclusive + " -a '(__shotguard_quarantine_ids)'"
        case .fill: return exclusive + " -a 'black pixelate pixelate:16 \\#'"
        }
    }

    /// A summary as fish shows it: a capital first letter.
    private func sentence(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// `text` in single quotes, with fish's two escapes there (`\\` and `\'`).
    private func fishQuote(_ text: String) -> String {
        var out = "'"
        for character in text {
            if character == "'" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out + "'"
    }
}
