# fish completion for shotguard(1): subcommands, their options, and the options' values.
# Installed as share/fish/vendor_completions.d/shotguard.fish; Tests/DocsTests checks it
# against 'shotguard --help' and 'shotguard COMMAND --help'.

# Prints the command named so far: "", "capture", "regions" or "regions show".
# Commands come first, before any option.
function __shotguard_command
    set -l tokens (commandline -opc)
    if test (count $tokens) -ge 2; and not string match -q -- '-*' $tokens[2]
        if contains -- $tokens[2] regions quarantine; and test (count $tokens) -ge 3
            echo "$tokens[2] $tokens[3]"
        else
            echo $tokens[2]
        end
    end
end

# Whether the command named so far is exactly $argv.
function __shotguard_using
    set -l command (__shotguard_command)
    test "$command" = "$argv"
end

# The ids of the quarantined screenshots.
function __shotguard_quarantine_ids
    set -l shotguard (commandline -opc)[1]
    command -q $shotguard; or return
    command $shotguard quarantine list 2>/dev/null | string replace -r ' .*' ''
end

# The ids of the viewable windows; nothing when there is no display.
function __shotguard_window_ids
    set -l shotguard (commandline -opc)[1]
    $shotguard windows --ids 2>/dev/null
end

# 'primary' and the monitors' names; only 'primary' when there is no display.
function __shotguard_monitor_names
    echo primary
    set -l shotguard (commandline -opc)[1]
    $shotguard monitors --names 2>/dev/null
end

complete -c shotguard -f

# Commands, and the options taken before one.
complete -c shotguard -n '__shotguard_using ""' -a capture -d 'Capture the screen, a window or a rectangle, redacted'
complete -c shotguard -n '__shotguard_using ""' -a demo -d 'Show capture and redaction on a private virtual display'
complete -c shotguard -n '__shotguard_using ""' -a monitors -d 'List the RandR monitors, to help write monitor rules'
complete -c shotguard -n '__shotguard_using ""' -a protect -d 'Ask that a window be covered, with no rule naming it'
complete -c shotguard -n '__shotguard_using ""' -a quarantine -d 'List, restore or purge the screenshots guard set aside'
complete -c shotguard -n '__shotguard_using ""' -a redact -d 'Redact an existing PNG, JPEG or WebP image'
complete -c shotguard -n '__shotguard_using ""' -a regions -d 'Check or preview the regions file'
complete -c shotguard -n '__shotguard_using ""' -a watch -d 'Notice screenshots and hand them on redacted (the background agent)'
complete -c shotguard -n '__shotguard_using ""' -a windows -d 'List the viewable windows, to help write rules'
complete -c shotguard -n '__shotguard_using ""' -l version -d 'Print the version and exit'
complete -c shotguard -n '__shotguard_using regions' -a check -d 'Check the regions file against the windows on screen'
complete -c shotguard -n '__shotguard_using regions' -a show -d "Write a capture with every rule's rectangles outlined"

complete -c shotguard -n '__shotguard_using quarantine' -a list -d 'List the screenshots guard set aside'
complete -c shotguard -n '__shotguard_using quarantine' -a restore -d 'Put back the original of a quarantined screenshot'
complete -c shotguard -n '__shotguard_using quarantine' -a purge -d 'Delete quarantined originals'

# Every command, and the root, takes --help.
complete -c shotguard -n 'not __shotguard_using regions; and not __shotguard_using quarantine' -s h -l help -d 'Show help and exit'

# Options that several commands share.
complete -c shotguard -n '__shotguard_using capture; or __shotguard_using redact; or __shotguard_using "regions show"' \
    -s o -l output -r -F -d "Write the image to FILE; '-' for standard output"
complete -c shotguard -n '__shotguard_using capture; or __shotguard_using redact; or __shotguard_using "regions check"; or __shotguard_using "regions show"; or __shotguard_using watch' \
    -l regions -r -F -d 'Read rules from FILE'
complete -c shotguard -n '__shotguard_using capture; or __shotguard_using redact; or __shotguard_using "regions show"; or __shotguard_using watch' \
    -l compression -x -a '0 1 2 3 4 5 6 7 8 9' -d 'zlib level for the PNG (0 fast, 9 smallest)'
complete -c shotguard -n '__shotguard_using capture; or __shotguard_using redact' \
    -l format -x -a 'png jpeg webp' -d 'Write this format whatever the extension'
complete -c shotguard -n '__shotguard_using capture; or __shotguard_using redact' \
    -l quality -x -a '50 75 90 100' -d 'Quality 1-100 for JPEG and WebP (default 90)'
complete -c shotguard -n '__shotguard_using capture; or __shotguard_using "regions show"; or __shotguard_using watch' \
    -l no-shm -d 'Capture with XGetImage even where MIT-SHM is available'

# capture
complete -c shotguard -n '__shotguard_using capture' -l screen -d 'Capture the whole screen (the default)'
complete -c shotguard -n '__shotguard_using capture' -l active -d 'Capture the active window'
complete -c shotguard -n '__shotguard_using capture' -l window -x -a '(__shotguard_window_ids)' -d 'Capture this window'
complete -c shotguard -n '__shotguard_using capture' -l geometry -x -d 'Capture this rectangle of the screen (WxH+X+Y)'
complete -c shotguard -n '__shotguard_using capture' -l monitor -x -a '(__shotguard_monitor_names)' -d 'Capture this RandR monitor'
complete -c shotguard -n '__shotguard_using capture' -l frame -d 'With --active or --window, include the decorations'
complete -c shotguard -n '__shotguard_using capture' -l no-redact -d 'Write the capture as it is, applying no rules'

# demo
complete -c shotguard -n '__shotguard_using demo' -l dir -x -a '(__fish_complete_directories)' -d 'Write the files into DIR'

# redact
complete -c shotguard -n '__shotguard_using redact' -F -d 'Input PNG'
complete -c shotguard -n '__shotguard_using redact' -l rect -x -d 'Also cover this rectangle of the image (WxH+X+Y)'
complete -c shotguard -n '__shotguard_using redact' -l fill -x -a 'black pixelate pixelate:16 \#' -d 'Cover for --rect'
complete -c shotguard -n '__shotguard_using redact' -l origin -x -d "The image's top-left corner on screen (+X+Y)"

# watch
complete -c shotguard -n '__shotguard_using watch' -l dir -x -a '(__fish_complete_directories)' -d 'Also watch DIR for screenshots'
complete -c shotguard -n '__shotguard_using watch' -l tool-class -x -d 'Also treat windows of WM_CLASS CLASS as a screenshot tool'
complete -c shotguard -n '__shotguard_using watch' -l spool -x -a '(__fish_complete_directories)' -d 'Write reports into DIR'
complete -c shotguard -n '__shotguard_using watch' -l keep -x -d 'Keep the newest N reports in the spool'
complete -c shotguard -n '__shotguard_using watch' -l exec -x -a '(__fish_complete_command)' -d 'Run CMD through /bin/sh for each report'
complete -c shotguard -n '__shotguard_using watch' -l json -d 'Print each report as one JSON line'
complete -c shotguard -n '__shotguard_using watch' -l once -d 'Exit after the first report'
complete -c shotguard -n '__shotguard_using watch' -l verbose -d 'Log every signal and decision'
complete -c shotguard -n '__shotguard_using watch' -l no-files -d 'Do not watch folders for screenshot files'
complete -c shotguard -n '__shotguard_using watch' -l no-clipboard -d 'Do not watch the clipboard'
complete -c shotguard -n '__shotguard_using watch' -l no-tools -d "Do not watch for screenshot tools' windows"
complete -c shotguard -n '__shotguard_using watch' -l no-guard -d 'Only report: leave screenshot files and the clipboard alone'
complete -c shotguard -n '__shotguard_using watch' -l shield -d 'Cover what the rules hit the moment Print is pressed'
complete -c shotguard -n '__shotguard_using watch' -l shield-key -r -d 'Also shield on this key (X keysym name)'

# quarantine
complete -c shotguard -n '__shotguard_using "quarantine list"' -l json -d 'Print one JSON object per entry'
complete -c shotguard -n '__shotguard_using "quarantine restore"' -a '(__shotguard_quarantine_ids)' -d 'Quarantine ID'
complete -c shotguard -n '__shotguard_using "quarantine restore"' -s o -l output -r -F -d 'Write the original to PATH'
complete -c shotguard -n '__shotguard_using "quarantine purge"' -l older-than -x -d 'Delete only entries older than DAYS days'

# protect
complete -c shotguard -n '__shotguard_using protect' -l window -x -a '(__shotguard_window_ids)' -d 'The window to protect'
complete -c shotguard -n '__shotguard_using protect' -l pick -d 'Click the window'
complete -c shotguard -n '__shotguard_using protect' -l off -d 'Clear the request instead of setting it'

# monitors
complete -c shotguard -n '__shotguard_using monitors' -l json -d 'Print a JSON array instead of a table'
complete -c shotguard -n '__shotguard_using monitors' -l names -d 'Print only the monitor names'

# windows
complete -c shotguard -n '__shotguard_using windows' -l json -d 'Print a JSON array instead of a table'
complete -c shotguard -n '__shotguard_using windows' -l ids -d 'Print only the window ids'
