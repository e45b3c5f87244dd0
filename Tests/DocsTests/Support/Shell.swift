// Asks bash, zsh and fish what they would complete, through the completion files of completions/.
import Foundation
import ShotguardTestSupport
import XCTest

/// A shell and its completion file. `complete` runs the shell's own completion machinery
/// (bash's `complete -F` function, zsh's compsys on a pseudo-terminal, fish's `complete -C`)
/// for whole command lines, as a user pressing Tab at their end would.
enum Shell: String, CaseIterable {
    case bash, zsh, fish

    var completionFile: String {
        switch self {
        case .bash: return "completions/shotguard.bash"
        case .zsh: return "completions/_shotguard"
        case .fish: return "completions/shotguard.fish"
        }
    }

    var package: String { rawValue }

    /// The candidates for each of `lines`, run in `directory` with `path` as PATH.
    func complete(_ lines: [String], path: String, in directory: URL,
                  file: StaticString = #filePath, line: UInt = #line) throws -> [String: [String]] {
        let shell = try requireTool(rawValue, package: package, file: file, line: line)
        let completions = repositoryFile(completionFile)
        var environment = testEnvironment(home: directory, path: path)
        let result: RunResult
        switch self {
        case .bash:
            result = try runProgram(shell, ["--norc", "--noprofile", "-c", Self.bashDriver, "bash", completions.path] + lines,
                             environment: environment, in: directory, file: file, line: line)
        case .zsh:
            environment["ZDOTDIR"] = directory.path
            result = try runProgram(shell, ["-f", "-c", Self.zshDriver, "zsh", completions.deletingLastPathComponent().path] + lines,
                             environment: environment, in: directory, timeout: 60, file: file, line: line)
        case .fish:
            result = try runProgram(shell, ["--no-config", "-c", Self.fishDriver, completions.path] + lines,
                             environment: environment, in: directory, file: file, line: line)
        }
        XCTAssertEqual(result.status, 0, "\(rawValue) completion driver failed: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr, "", "\(rawValue) completion printed errors", file: file, line: line)

        var candidates: [String: [String]] = [:]
        var current: String?
        for text in result.lines {
            if text.hasPrefix("### ") {
                current = String(text.dropFirst(4))
                candidates[current!] = []
            } else if let current, !text.isEmpty {
                candidates[current]!.append(text)
            }
        }
        for asked in lines where candidates[asked] == nil {
            XCTFail("\(rawValue) completion gave no answer for '\(asked)':\n\(result.stdoutText)", file: file, line: line)
        }
        return candidates
    }

    /// Sources the file, finds the function that `complete -p shotguard` names, and calls it
    /// with COMP_LINE, COMP_POINT, COMP_WORDS and COMP_CWORD set as bash sets them.
    private static let bashDriver = #"""
        source "$1" || exit 1
        shift
        spec=$(complete -p shotguard) || exit 1
        function=${spec#*-F }
        function=${function%% *}
        for line; do
            printf '### %s\n' "$line"
            COMP_LINE=$line
            COMP_POINT=${#line}
            read -r -a COMP_WORDS <<<"$line"
            [[ $line == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMPREPLY=()
            "$function" shotguard "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            ((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}"
        done
        exit 0
        """#

    /// Starts an interactive `zsh -f` on a pseudo-terminal (zpty) with compinit and the folder
    /// of `_shotguard` on fpath, types each line and Tab, and prints every match that reaches
    /// `compadd`. The driver waits on the shell's own output, never on a timer: on the prompt
    /// before it types (until zle has put the terminal in raw mode, the terminal's line
    /// discipline would take ^U and Tab for itself), and on a marker that a command typed after
    /// the Tab prints. Quotes split each marker where it is typed, so only output matches.
    private static let zshDriver = #"""
        zmodload zsh/zpty || exit 1
        folder=$1
        shift
        zpty shell zsh -f -i || exit 1
        zpty -w shell "PS1='<pro''mpt>'; RPS1=''; fpath=(${(q)folder} \$fpath); autoload -Uz compinit; compinit -u -D"
        zpty -w shell 'unsetopt autolist listambiguous listbeep; setopt nobeep'
        zpty -w shell 'compadd() { local -a __hits; builtin compadd -O __hits "$@"; print -rl -- "<hit>"${^__hits}; builtin compadd "$@" }'
        zpty -w shell "bindkey '^I' complete-word; print -r -- '<rea''dy>'"
        while zpty -r shell text; do [[ $text == *'<ready>'* ]] && break; done
        integer n=0
        for line in "$@"; do
            zpty -r shell text '*<prompt>' || exit 1
            (( n++ ))
            print -r -- "### $line"
            zpty -n -w shell "$line"$'\t'
            zpty -w shell $'\C-e\C-u'"print -r -- '<do''ne>$n'"
            while zpty -r shell text; do
                text=${text//[$'\r\n']/}
                [[ $text == *"<done>$n" ]] && break
                [[ $text == *'<hit>'* ]] && print -r -- "${text#*<hit>}"
            done
        done
        zpty -d shell
        exit 0
        """#

    /// Sources the file and asks `complete -C` for each line.
    private static let fishDriver = #"""
        source $argv[1]; or exit 1
        for line in $argv[2..-1]
            echo "### $line"
            complete -C $line | string replace -r '\t.*' ''
        end
        exit 0
        """#
}
