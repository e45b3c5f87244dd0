// The bash completion script, written from the command model (`shotguard completions bash`).

extension CompletionModel {
    var bash: String {
        """
        # bash completion for shotguard(1): subcommands, their options, and the options' values.
        # Written by 'shotguard completions bash' from the commands themselves: run
        # 'make completions' after changing one, rather than editing this file.
        # Installed as share/bash-completion/completions/shotguard.

        # The options of one command ("" for the options taken before a command).
        _shotguard_options() {
            case $1 in
        \(([root] + commands).map { "        \(bashCase($0.name)) echo \(optionWords($0)) ;;" }.joined(separator: "\n"))
            esac
        }

        # What the value of option $2 of command $1 is, for _shotguard_values; nothing when the
        # option takes no value.
        _shotguard_value_kind() {
            case "$1|$2" in
        \(valueKindCases.joined(separator: "\n"))
            esac
        }

        # What the words after command $1 that are not options are, for _shotguard_values.
        _shotguard_operand_kind() {
            case $1 in
        \(commands.filter { $0.operand != .none }.map { "        \(bashCase($0.name)) echo \(bashKind($0.operand)) ;;" }
            .joined(separator: "\n"))
            esac
        }

        # Fills COMPREPLY with the values of kind $1 that start with $2.
        _shotguard_values() {
            local IFS=$'\\n'
            local shotguard=${COMP_WORDS[0]/#\\~/$HOME}
            case $1 in
                file)
                    compopt -o filenames 2>/dev/null
                    COMPREPLY=($(compgen -f -- "$2")) ;;
                folder)
                    compopt -o filenames 2>/dev/null
                    COMPREPLY=($(compgen -d -- "$2")) ;;
                command)
                    # A command line for /bin/sh: its first word is a command.
                    COMPREPLY=($(compgen -c -- "$2")) ;;
                windows)
                    # The ids of the viewable windows; nothing when there is no display.
                    COMPREPLY=($(compgen -W "$("$shotguard" windows --ids 2>/dev/null)" -- "$2")) ;;
                monitors)
                    # 'primary' and the monitors' names; only 'primary' when there is no display.
                    COMPREPLY=($(compgen -W "primary"$'\\n'"$("$shotguard" monitors --names 2>/dev/null)" -- "$2")) ;;
                quarantine)
                    # The ids of the quarantined screenshots.
                    COMPREPLY=($(compgen -W "$("$shotguard" quarantine list 2>/dev/null | cut -d' ' -f1)" -- "$2")) ;;
                fill)
                    COMPREPLY=($(compgen -W $'black\\npixelate\\npixelate:16' -- "$2"))
                    # '#rrggbb': offered as '\\#', since an unquoted '#' starting a word begins a comment.
                    [[ -z $2 ]] && COMPREPLY+=('\\#') ;;
                words\\ *)
                    local words=${1#words }
                    COMPREPLY=($(compgen -W "${words// /$'\\n'}" -- "$2")) ;;
                *)
                    COMPREPLY=() ;; # free text: nothing to offer
            esac
        }

        _shotguard() {
            # The words up to the cursor, split at blanks only: bash's own split breaks
            # '--fill=pixelate:16' at '=' and ':' (COMP_WORDBREAKS), which would hide the option.
            local line=${COMP_LINE:0:COMP_POINT}
            local -a words
            read -r -a words <<<"$line"
            [[ $line =~ [[:blank:]]$ || ${#words[@]} -eq 0 ]] && words+=("")
            local cur=${words[${#words[@]} - 1]}
            local prev=${words[${#words[@]} - 2]}

            # The command named so far: "", a command, a group, or a group and its command.
            # Commands come first, before any option.
            local command=""
            if ((${#words[@]} > 2)) && [[ ${words[1]} != -* ]]; then
                command=${words[1]}
                case $command in
                    \(groups.joined(separator: " | ")))
                        ((${#words[@]} > 3)) && command="$command ${words[2]}" ;;
                esac
            fi
            local kind=""
            [[ $prev == -* && $prev != *=* ]] && kind=$(_shotguard_value_kind "$command" "$prev")

            COMPREPLY=()
            if [[ -n $kind ]]; then
                _shotguard_values "$kind" "$cur"
            elif [[ $cur == --*=* ]]; then
                local option=${cur%%=*}
                cur=${cur#*=}
                _shotguard_values "$(_shotguard_value_kind "$command" "$option")" "$cur"
                # With '=' among its word breaks (the default), bash replaces only the value.
                if [[ $COMP_WORDBREAKS != *=* ]]; then
                    local index
                    for index in "${!COMPREPLY[@]}"; do COMPREPLY[index]=$option=${COMPREPLY[index]}; done
                    cur=$option=$cur
                fi
            elif [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "$(_shotguard_options "$command")" -- "$cur"))
            elif [[ -z $command ]]; then
                COMPREPLY=($(compgen -W \(bashQuote(firstWords.joined(separator: " "))) -- "$cur"))
            else
                case $command in
        \(groups.map { "            \($0)) COMPREPLY=($(compgen -W \(bashQuote((members(of: $0) ?? []).joined(separator: " "))) -- \"$cur\")) ;;" }
            .joined(separator: "\n"))
                    *) _shotguard_values "$(_shotguard_operand_kind "$command")" "$cur" ;;
                esac
            fi

            # ':' is a word break too (as in pixelate:16): offer only what follows the last one.
            if [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]]; then
                local prefix=${cur%"${cur##*:}"} index
                for index in "${!COMPREPLY[@]}"; do
                    COMPREPLY[index]=${COMPREPLY[index]#"$prefix"}
                done
            fi
        }

        complete -F _shotguard shotguard

        """
    }

    /// Every name of every option of `command`, short before long, in the spec's order, as
    /// quoted words for `echo`, a few to a line.
    private func optionWords(_ command: CommandSpec) -> String {
        var lines: [String] = []
        var line = ""
        for name in command.options.flatMap({ option in (option.short.map { ["-\($0)"] } ?? []) + ["--\(option.long)"] }) {
            if line.count + name.count > 70 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + name
        }
        return (lines + [line]).map(bashQuote).joined(separator: " \\\n            ")
    }

    /// One case a kind, every command|option pair of that kind on it.
    private var valueKindCases: [String] {
        var kinds: [String] = []
        var pairs: [String: [String]] = [:]
        for command in [root] + commands {
            for option in command.options where option.takesValue {
                let kind = bashKind(option.completion)
                if pairs[kind] == nil { kinds.append(kind) }
                for name in (option.short.map { ["-\($0)"] } ?? []) + ["--\(option.long)"] {
                    pairs[kind, default: []].append(bashQuote("\(command.name)|\(name)"))
                }
            }
        }
        return kinds.map { kind in
            let patterns = pairs[kind]!.chunked(4).map { $0.joined(separator: " | ") }.joined(separator: " | \\\n            ")
            return "        \(patterns))\n            echo \(bashQuote(kind)) ;;"
        }
    }

    private func bashKind(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: return "free"
        case .file: return "file"
        case .folder: return "folder"
        case .command: return "command"
        case .words(let words): return "words " + words.joined(separator: " ")
        case .windowIDs: return "windows"
        case .monitorNames: return "monitors"
        case .quarantineIDs: return "quarantine"
        case .fill: return "fill"
        }
    }

    /// A case pattern for a command name: `""` for the root, quoted when it has a space.
    private func bashCase(_ name: String) -> String { (name.isEmpty || name.contains(" ") ? bashQuote(name) : name) + ")" }

    /// `text` in double quotes (the model's words hold no `"`, `$`, backslash or backquote).
    private func bashQuote(_ text: String) -> String { "\"" + text + "\"" }
}

extension Array {
    /// The elements in runs of `size` (the last may be shorter).
    func chunked(_ size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
