// The zsh completion function, written from the command model (`shotguard completions zsh`).

extension CompletionModel {
    var zsh: String {
        """
        #compdef shotguard
        # zsh completion for shotguard(1): subcommands, their options, and the options' values.
        # Written by 'shotguard completions zsh' from the commands themselves: run
        # 'make completions' after changing one, rather than editing this file.
        # Installed as share/zsh/site-functions/_shotguard.

        # The ids of the viewable windows, from 'shotguard windows --ids'; nothing without a display.
        (( $+functions[_shotguard_window_ids] )) || _shotguard_window_ids() {
          local -a ids
          ids=(${(f)"$(${~${words[1]:-shotguard}} windows --ids 2>/dev/null)"})
          _describe -t window-ids 'window id' ids
        }

        # 'primary' and the monitors' names, from 'shotguard monitors --names'; only 'primary' without a display.
        (( $+functions[_shotguard_monitor_names] )) || _shotguard_monitor_names() {
          local -a names
          names=(primary ${${(f)"$(${~${words[1]:-shotguard}} monitors --names 2>/dev/null)"}:#})
          _describe -t monitor-names 'monitor name' names
        }

        # The ids of the quarantined screenshots, from 'shotguard quarantine list'.
        (( $+functions[_shotguard_quarantine_ids] )) || _shotguard_quarantine_ids() {
          local -a ids
          ids=(${${(f)"$(${~${words[1]:-shotguard}} quarantine list 2>/dev/null)"}%% *})
          _describe -t quarantine-ids 'quarantine id' ids
        }

        # Fill styles: a solid colour, or the weaker mosaic.
        (( $+functions[_shotguard_fills] )) || _shotguard_fills() {
          local -a fills
          fills=(
            'black:solid black (the default)'
            'pixelate:a mosaic of 16-pixel blocks (weaker than a solid fill)'
            'pixelate\\:16:a mosaic of N-pixel blocks (weaker than a solid fill)'
            '#:a solid colour, #rrggbb'
          )
          _describe -t fills 'fill style' fills
        }

        \(commands.map(zshFunction).joined(separator: "\n\n"))

        _shotguard() {
          local shotguard=${words[1]}
          local -a commands
          commands=(
        \(firstWords.map { "    " + zshQuote("\($0):\(summary(of: $0))") }.joined(separator: "\n"))
          )
          if (( CURRENT == 2 )) && [[ $words[CURRENT] == -* ]]; then
            _arguments \(root.options.map(zshSpec).joined(separator: " "))
          elif (( CURRENT == 2 )); then
            _describe -t commands 'shotguard command' commands
        \(groups.map(zshGroupBranch).joined(separator: "\n"))
          else
            local command=$words[2]
            if [[ \(groups.map { "$command == \($0)" }.joined(separator: " || ")) ]]; then
              command="${command}_$words[3]"
              shift words
              (( CURRENT-- ))
            fi
            shift words
            (( CURRENT-- ))
            words[1]=$shotguard
            (( $+functions[_shotguard_$command] )) && _shotguard_$command
          fi
        }

        _shotguard "$@"

        """
    }

    /// The function that completes one command's options and operand.
    private func zshFunction(_ command: CommandSpec) -> String {
        let name = "_shotguard_" + command.name.replacingSpaces(with: "_")
        var specs = command.options.map(zshSpec)
        if command.operand != .none {
            // `shield -- COMMAND`: the end of options is no name for the operand.
            let message = command.arguments.split(separator: " ").first { $0 != "--" }.map(String.init) ?? "argument"
            if command.operand == .command {
                // A program to run, then its own arguments completed as its own (as for sudo);
                // none for a word that starts with '-', where _command_names offers '-' itself.
                specs += [zshQuote("1:\(zshMessage(message)):{[[ $PREFIX == -* ]] || _command_names -e}"),
                          zshQuote("*::arguments:_normal")]
            } else {
                specs.append(zshQuote("1:\(zshMessage(message)):\(zshAction(command.operand))"))
            }
        }
        return "(( $+functions[\(name)] )) || \(name)() {\n  _arguments -S \\\n    "
            + specs.joined(separator: " \\\n    ") + "\n}"
    }

    /// The branch that offers a group's commands after its name.
    private func zshGroupBranch(_ group: String) -> String {
        let items = (members(of: group) ?? []).map { member in
            zshQuote("\(member):\(commands.first { $0.name == "\(group) \(member)" }?.summary ?? member)")
        }
        return "  elif [[ $words[2] == \(group) ]] && (( CURRENT == 3 )); then\n"
            + "    local -a members\n    members=(\(items.joined(separator: " ")))\n"
            + "    _describe -t commands '\(group) command' members"
    }

    /// One `_arguments` spec: `--help` and `--version` end the command line; a short and a long
    /// name exclude each other; a repeatable option may come again.
    private func zshSpec(_ option: OptionSpec) -> String {
        let ends = option.long == "help" || option.long == "version"
        let again = option.repeatable ? "*" : ""
        let description = "[" + zshDescription(option.help) + "]"
        let argument = option.value.map { ":" + zshMessage($0) + ":" + zshAction(option.completion) } ?? ""
        let equals = option.takesValue ? "=" : ""
        guard let short = option.short else {
            return zshQuote(again + (ends ? "(- *)" : "") + "--\(option.long)\(equals)" + description + argument)
        }
        let exclusion = ends ? "(- *)" : "(-\(short) --\(option.long))"
        return zshQuote(again + exclusion) + "{-\(short),--\(option.long)\(equals)}" + zshQuote(description + argument)
    }

    private func zshAction(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: return ""
        case .file: return "_files"
        case .folder: return "_path_files -/"
        case .command: return "_cmdstring"
        case .words(let words): return "(" + words.joined(separator: " ") + ")"
        case .windowIDs: return "_shotguard_window_ids"
        case .monitorNames: return "_shotguard_monitor_names"
        case .quarantineIDs: return "_shotguard_quarantine_ids"
        case .fill: return "_shotguard_fills"
        }
    }

    /// Help text inside `[...]`: brackets and backslashes escaped for `_arguments`.
    private func zshDescription(_ text: String) -> String {
        var out = ""
        for character in text {
            if "[]\\".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// A placeholder as `_arguments` shows it: colons escaped.
    private func zshMessage(_ text: String) -> String { text.replacingColons() }

    /// `text` in single quotes, a quote in it written as `'\''`.
    private func zshQuote(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}

extension String {
    func replacingSpaces(with replacement: String) -> String { split(separator: " ").joined(separator: replacement) }

    /// Every `:` as `\:`, as zsh's completion specs take a colon inside a field.
    func replacingColons() -> String { split(separator: ":", omittingEmptySubsequences: false).joined(separator: "\\:") }
}
