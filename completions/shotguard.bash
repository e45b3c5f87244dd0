# bash completion for shotguard(1): subcommands, their options, and the options' values.
# Written by 'shotguard completions bash' from the commands themselves: run
# 'make completions' after changing one, rather than editing this file.
# Installed as share/bash-completion/completions/shotguard.

# The options of one command ("" for the options taken before a command).
_shotguard_options() {
    case $1 in
        "") echo "-h --help -v --version" ;;
        autostart) echo "-h --help" ;;
        capture) echo "-o --output --screen --active --window --geometry --monitor --frame" \
            "--regions --no-redact --no-shm --format --quality --compression -h" \
            "--help" ;;
        completions) echo "-h --help" ;;
        demo) echo "--dir -h --help" ;;
        doctor) echo "--json --regions -h --help" ;;
        monitors) echo "--json --names -h --help" ;;
        pause) echo "--until-resume -h --help" ;;
        protect) echo "--window --pick --off -h --help" ;;
        "quarantine list") echo "--json -h --help" ;;
        "quarantine restore") echo "-o --output --force -h --help" ;;
        "quarantine purge") echo "--older-than -h --help" ;;
        redact) echo "-o --output --regions --rect --fill --origin --format --quality" \
            "--compression -h --help" ;;
        "regions add") echo "--pick --preset --list-presets --regions -h --help" ;;
        "regions check") echo "--regions -h --help" ;;
        "regions show") echo "-o --output --regions --no-shm --compression -h --help" ;;
        "reports follow") echo "--json -h --help" ;;
        "reports list") echo "--json --spool -h --help" ;;
        "reports purge") echo "--older-than --spool -h --help" ;;
        "reports send") echo "--wait -h --help" ;;
        resume) echo "-h --help" ;;
        shield) echo "--regions --key-wait --limit --verbose -h --help" ;;
        status) echo "--json -h --help" ;;
        watch) echo "--regions --dir --tool-class --spool --keep --keep-for" \
            "--keep-unredacted --exec --report-to --report-header-file --report-ask" \
            "--report-queue --report-queue-size --report-queue-for --json --once" \
            "--verbose --no-files --no-clipboard --no-tools --no-guard --no-notify" \
            "--no-tray --no-indicator --shield --no-shield --shield-key" \
            "--no-read-ahead --no-shm --compression --config -h --help" ;;
        windows) echo "--json --ids -h --help" ;;
    esac
}

# What the value of option $2 of command $1 is, for _shotguard_values; nothing when the
# option takes no value.
_shotguard_value_kind() {
    case "$1|$2" in
        "capture|-o" | "capture|--output" | "capture|--regions" | "doctor|--regions" | \
            "quarantine restore|-o" | "quarantine restore|--output" | "redact|-o" | "redact|--output" | \
            "redact|--regions" | "regions add|--regions" | "regions check|--regions" | "regions show|-o" | \
            "regions show|--output" | "regions show|--regions" | "shield|--regions" | "watch|--regions" | \
            "watch|--report-header-file" | "watch|--config")
            echo "file" ;;
        "capture|--window" | "protect|--window")
            echo "windows" ;;
        "capture|--geometry" | "quarantine purge|--older-than" | "redact|--rect" | "redact|--origin" | \
            "regions add|--preset" | "reports purge|--older-than" | "reports send|--wait" | "shield|--limit" | \
            "watch|--tool-class" | "watch|--keep" | "watch|--keep-for" | "watch|--report-to" | \
            "watch|--report-queue" | "watch|--report-queue-size" | "watch|--report-queue-for")
            echo "free" ;;
        "capture|--monitor")
            echo "monitors" ;;
        "capture|--format" | "redact|--format")
            echo "words png jpg jpeg webp bmp gif tiff tif ppm pgm pbm pnm pam ico avif xwd" ;;
        "capture|--quality" | "redact|--quality")
            echo "words 50 75 90 100" ;;
        "capture|--compression" | "redact|--compression" | "regions show|--compression" | "watch|--compression")
            echo "words 0 1 2 3 4 5 6 7 8 9" ;;
        "demo|--dir" | "reports list|--spool" | "reports purge|--spool" | "watch|--dir" | \
            "watch|--spool")
            echo "folder" ;;
        "redact|--fill")
            echo "fill" ;;
        "watch|--exec")
            echo "command" ;;
        "watch|--shield-key")
            echo "words Print Sys_Req Pause Scroll_Lock Insert Menu F1 F2 F3 F4 F5 F6 F7 F8 F9 F10 F11 F12" ;;
    esac
}

# What the words after command $1 that are not options are, for _shotguard_values.
_shotguard_operand_kind() {
    case $1 in
        completions) echo words bash zsh fish ;;
        "quarantine restore") echo quarantine ;;
        redact) echo file ;;
        shield) echo command ;;
    esac
}

# Fills COMPREPLY with the values of kind $1 that start with $2.
_shotguard_values() {
    local IFS=$'\n'
    local shotguard=${COMP_WORDS[0]/#\~/$HOME}
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
            COMPREPLY=($(compgen -W "primary"$'\n'"$("$shotguard" monitors --names 2>/dev/null)" -- "$2")) ;;
        quarantine)
            # The ids of the quarantined screenshots.
            COMPREPLY=($(compgen -W "$("$shotguard" quarantine list 2>/dev/null | cut -d' ' -f1)" -- "$2")) ;;
        fill)
            COMPREPLY=($(compgen -W $'black\npixelate\npixelate:16' -- "$2"))
            # '#rrggbb': offered as '\#', since an unquoted '#' starting a word begins a comment.
            [[ -z $2 ]] && COMPREPLY+=('\#') ;;
        words\ *)
            local words=${1#words }
            COMPREPLY=($(compgen -W "${words// /$'\n'}" -- "$2")) ;;
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
            quarantine | regions | reports)
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
        COMPREPLY=($(compgen -W "autostart capture completions demo doctor monitors pause protect quarantine redact regions reports resume shield status watch windows" -- "$cur"))
    else
        case $command in
            quarantine) COMPREPLY=($(compgen -W "list restore purge" -- "$cur")) ;;
            regions) COMPREPLY=($(compgen -W "add check show" -- "$cur")) ;;
            reports) COMPREPLY=($(compgen -W "follow list purge send" -- "$cur")) ;;
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
