# bash completion for shotguard(1): subcommands, their options, and the options' values.
# Installed as share/bash-completion/completions/shotguard; Tests/DocsTests checks it
# against 'shotguard --help' and 'shotguard COMMAND --help'.

# The options of one command ("" for the options taken before a command).
_shotguard_options() {
    case $1 in
        "") echo "-h --help --version" ;;
        capture) echo "-o --output --screen --active --window --geometry --monitor --frame --regions" \
            "--no-redact --no-shm --format --quality --compression -h --help" ;;
        demo) echo "--dir -h --help" ;;
        monitors) echo "--json --names -h --help" ;;
        protect) echo "--window --pick --off -h --help" ;;
        redact) echo "-o --output --regions --rect --fill --origin --format --quality --compression -h --help" ;;
        "regions check") echo "--regions -h --help" ;;
        "regions show") echo "-o --output --regions --no-shm --compression -h --help" ;;
        "quarantine list") echo "--json -h --help" ;;
        "quarantine restore") echo "-o --output -h --help" ;;
        "quarantine purge") echo "--older-than -h --help" ;;
        watch) echo "--regions --dir --tool-class --spool --keep --exec --json --once --verbose --no-files" \
            "--no-clipboard --no-tools --no-guard --shield --shield-key --no-shm --compression -h --help" ;;
        windows) echo "--json --ids -h --help" ;;
    esac
}

# Whether an option takes a value (as the next word or after '=').
_shotguard_takes_value() {
    case $1 in
        -o | --output | --regions | --window | --geometry | --monitor | --compression | --dir | --rect | --fill | --origin | \
            --format | --quality | --tool-class | --spool | --keep | --exec | --older-than | --shield-key)
            return 0 ;;
    esac
    return 1
}

# Fills COMPREPLY with the values of option $1 that start with $2.
_shotguard_values() {
    local IFS=$'\n'
    case $1 in
        -o | --output | --regions)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$2")) ;;
        --dir | --spool)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -d -- "$2")) ;;
        --exec)
            # A command line for /bin/sh: its first word is a command.
            COMPREPLY=($(compgen -c -- "$2")) ;;
        --window)
            # The ids of the viewable windows; nothing when there is no display.
            local shotguard=${COMP_WORDS[0]/#\~/$HOME}
            COMPREPLY=($(compgen -W "$("$shotguard" windows --ids 2>/dev/null)" -- "$2")) ;;
        --monitor)
            # 'primary' and the monitors' names; only 'primary' when there is no display.
            local shotguard=${COMP_WORDS[0]/#\~/$HOME}
            COMPREPLY=($(compgen -W "primary"$'\n'"$("$shotguard" monitors --names 2>/dev/null)" -- "$2")) ;;
        --fill)
            COMPREPLY=($(compgen -W $'black\npixelate\npixelate:16' -- "$2"))
            # '#rrggbb': offered as '\#', since an unquoted '#' starting a word begins a comment.
            [[ -z $2 ]] && COMPREPLY+=('\#') ;;
        --compression)
            COMPREPLY=($(compgen -W $'0\n1\n2\n3\n4\n5\n6\n7\n8\n9' -- "$2")) ;;
        --format)
            COMPREPLY=($(compgen -W $'png\njpeg\nwebp' -- "$2")) ;;
        --quality)
            COMPREPLY=($(compgen -W $'50\n75\n90\n100' -- "$2")) ;;
        *)
            COMPREPLY=() ;; # a geometry, a position or a window class: nothing to offer
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

    # The command named so far: "", "capture", "regions" or "regions show". Commands come
    # first, before any option.
    local command=""
    if ((${#words[@]} > 2)) && [[ ${words[1]} != -* ]]; then
        command=${words[1]}
        [[ ($command == regions || $command == quarantine) && ${#words[@]} -gt 3 ]] && command="$command ${words[2]}"
    fi
    local expect_value=""
    [[ $prev == -* && $prev != *=* ]] && _shotguard_takes_value "$prev" && expect_value=1

    COMPREPLY=()
    if [[ -n $expect_value ]]; then
        _shotguard_values "$prev" "$cur"
    elif [[ $cur == --*=* ]]; then
        local option=${cur%%=*}
        cur=${cur#*=}
        _shotguard_values "$option" "$cur"
        # With '=' among its word breaks (the default), bash replaces only the value.
        if [[ $COMP_WORDBREAKS != *=* ]]; then
            local index
            for index in "${!COMPREPLY[@]}"; do COMPREPLY[index]=$option=${COMPREPLY[index]}; done
            cur=$option=$cur
        fi
    elif [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_shotguard_options "$command")" -- "$cur"))
    elif [[ -z $command ]]; then
        COMPREPLY=($(compgen -W "capture demo monitors protect quarantine redact regions watch windows" -- "$cur"))
    elif [[ $command == regions ]]; then
        COMPREPLY=($(compgen -W "check show" -- "$cur"))
    elif [[ $command == quarantine ]]; then
        COMPREPLY=($(compgen -W "list restore purge" -- "$cur"))
    elif [[ $command == "quarantine restore" ]]; then
        # The ids of the quarantined screenshots.
        local shotguard=${COMP_WORDS[0]/#\~/$HOME}
        COMPREPLY=($(compgen -W "$("$shotguard" quarantine list 2>/dev/null | cut -d' ' -f1)" -- "$cur"))
    elif [[ $command == redact ]]; then
        compopt -o filenames 2>/dev/null
        local IFS=$'\n'
        COMPREPLY=($(compgen -f -- "$cur"))
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
