# fish completion for shotguard(1): subcommands, their options, and the options' values.
# Written by 'shotguard completions fish' from the commands themselves: run
# 'make completions' after changing one, rather than editing this file.
# Installed as share/fish/vendor_completions.d/shotguard.fish.

# Prints the command named so far: "", a command, a group, or a group and its command.
# Commands come first, before any option.
function __shotguard_command
    set -l tokens (commandline -opc)
    if test (count $tokens) -ge 2; and not string match -q -- '-*' $tokens[2]
        if contains -- $tokens[2] quarantine regions reports; and test (count $tokens) -ge 3
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

# Commands and groups, and the options taken before a command.
complete -c shotguard -n '__shotguard_using ""' -a autostart -d 'Start the agent for this X session (what the autostart entry runs)'
complete -c shotguard -n '__shotguard_using ""' -a capture -d 'Capture the screen, a window or a rectangle, redacted'
complete -c shotguard -n '__shotguard_using ""' -a completions -d 'Print the completion script for bash, zsh or fish'
complete -c shotguard -n '__shotguard_using ""' -a demo -d 'Show capture and redaction on a private virtual display'
complete -c shotguard -n '__shotguard_using ""' -a doctor -d 'Say what protects this session, what does not, and the fix'
complete -c shotguard -n '__shotguard_using ""' -a monitors -d 'List the RandR monitors, to help write monitor rules'
complete -c shotguard -n '__shotguard_using ""' -a pause -d 'Pause protection for a while (default 10 minutes)'
complete -c shotguard -n '__shotguard_using ""' -a protect -d 'Ask that a window be covered, with no rule naming it'
complete -c shotguard -n '__shotguard_using ""' -a quarantine -d 'List, restore or purge the screenshots guard set aside'
complete -c shotguard -n '__shotguard_using ""' -a redact -d 'Redact an existing image (PNG, JPEG, WebP, BMP, GIF, TIFF, PNM, ICO, AVIF or XWD)'
complete -c shotguard -n '__shotguard_using ""' -a regions -d 'Add to, check or preview the regions file'
complete -c shotguard -n '__shotguard_using ""' -a reports -d 'List, send, follow or purge the reports the agent made'
complete -c shotguard -n '__shotguard_using ""' -a resume -d 'End a pause: protect again at once'
complete -c shotguard -n '__shotguard_using ""' -a shield -d 'Cover what the rules hit while COMMAND reads the screen'
complete -c shotguard -n '__shotguard_using ""' -a status -d 'Say whether the agent protects this session (and why not)'
complete -c shotguard -n '__shotguard_using ""' -a watch -d 'Notice screenshots and hand them on redacted (the background agent)'
complete -c shotguard -n '__shotguard_using ""' -a windows -d 'List the viewable windows, to help write rules'
complete -c shotguard -n '__shotguard_using ""' -s h -l help -d 'Show this help and exit'
complete -c shotguard -n '__shotguard_using ""' -s v -l version -d 'Print the version and exit (-V too)'

# quarantine
complete -c shotguard -n '__shotguard_using quarantine' -a list -d 'List the screenshots guard set aside'
complete -c shotguard -n '__shotguard_using quarantine' -a restore -d 'Put back the original of a quarantined screenshot'
complete -c shotguard -n '__shotguard_using quarantine' -a purge -d 'Delete quarantined originals'

# regions
complete -c shotguard -n '__shotguard_using regions' -a add -d 'Add a rule by clicking a window, dragging over part of one, or from a preset'
complete -c shotguard -n '__shotguard_using regions' -a check -d 'Check the regions file against the windows on screen'
complete -c shotguard -n '__shotguard_using regions' -a show -d 'Write a capture with every rule\'s rectangles outlined'

# reports
complete -c shotguard -n '__shotguard_using reports' -a follow -d 'Print each report the running agent makes, as it makes it'
complete -c shotguard -n '__shotguard_using reports' -a list -d 'List the reports the agent kept, newest first'
complete -c shotguard -n '__shotguard_using reports' -a purge -d 'Delete the reports the agent kept'
complete -c shotguard -n '__shotguard_using reports' -a send -d 'Send queued reports now (all waiting ones, or those named)'

# autostart
complete -c shotguard -n '__shotguard_using autostart' -s h -l help -d 'Show this help and exit'

# capture
complete -c shotguard -n '__shotguard_using capture' -s o -l output -r -F -d 'Write the image to FILE (atomically), in the format its extension names (.png .jpg .jpeg .webp .bmp .gif .tiff .tif .ppm .pgm .pbm .pnm .pam .ico .avif .xwd); \'-\' writes PNG to stdout'
complete -c shotguard -n '__shotguard_using capture' -l screen -d 'Capture the whole screen (the default)'
complete -c shotguard -n '__shotguard_using capture' -l active -d 'Capture the active window as it shows on screen'
complete -c shotguard -n '__shotguard_using capture' -l window -x -a '(__shotguard_window_ids)' -d 'Capture window ID (see \'shotguard windows\')'
complete -c shotguard -n '__shotguard_using capture' -l geometry -x -d 'Capture this rectangle of the screen'
complete -c shotguard -n '__shotguard_using capture' -l monitor -x -a '(__shotguard_monitor_names)' -d 'Capture the RandR monitor NAME, or \'primary\' (see \'shotguard monitors\')'
complete -c shotguard -n '__shotguard_using capture' -l frame -d 'With --active or --window, include the window manager\'s decorations'
complete -c shotguard -n '__shotguard_using capture' -l regions -r -F -d 'Read rules from FILE instead of $XDG_CONFIG_HOME/shotguard/regions'
complete -c shotguard -n '__shotguard_using capture' -l no-redact -d 'Write the capture as it is, applying no rules'
complete -c shotguard -n '__shotguard_using capture' -l no-shm -d 'Capture with XGetImage even where MIT-SHM is available'
complete -c shotguard -n '__shotguard_using capture' -l format -x -a 'png jpg jpeg webp bmp gif tiff tif ppm pgm pbm pnm pam ico avif xwd' -d 'Write FORMAT whatever FILE\'s extension says: png, jpg, jpeg, webp, bmp, gif, tiff, tif, ppm, pgm, pbm, pnm, pam, ico, avif, xwd'
complete -c shotguard -n '__shotguard_using capture' -l quality -x -a '50 75 90 100' -d 'Quality 1-100 for JPEG, WebP and AVIF output (default 90)'
complete -c shotguard -n '__shotguard_using capture' -l compression -x -a '0 1 2 3 4 5 6 7 8 9' -d 'zlib level 0-9 for the PNG (default 1: fast; 9: smallest)'
complete -c shotguard -n '__shotguard_using capture' -s h -l help -d 'Show this help and exit'

# completions
complete -c shotguard -n '__shotguard_using completions' -a 'bash zsh fish' -d 'SHELL'
complete -c shotguard -n '__shotguard_using completions' -s h -l help -d 'Show this help and exit'

# demo
complete -c shotguard -n '__shotguard_using demo' -l dir -x -a '(__fish_complete_directories)' -d 'Write the demo\'s files into DIR (created if needed; default: a new temporary folder)'
complete -c shotguard -n '__shotguard_using demo' -s h -l help -d 'Show this help and exit'

# doctor
complete -c shotguard -n '__shotguard_using doctor' -l json -d 'Print one JSON object instead of the screen of text'
complete -c shotguard -n '__shotguard_using doctor' -l regions -r -F -d 'Read rules from FILE instead of $XDG_CONFIG_HOME/shotguard/regions'
complete -c shotguard -n '__shotguard_using doctor' -s h -l help -d 'Show this help and exit'

# monitors
complete -c shotguard -n '__shotguard_using monitors' -l json -d 'Print a JSON array instead of a table'
complete -c shotguard -n '__shotguard_using monitors' -l names -d 'Print only the monitor names, one per line (for shell completion)'
complete -c shotguard -n '__shotguard_using monitors' -s h -l help -d 'Show this help and exit'

# pause
complete -c shotguard -n '__shotguard_using pause' -l until-resume -d 'Pause until \'shotguard resume\', with no end of its own (as DURATION 0)'
complete -c shotguard -n '__shotguard_using pause' -s h -l help -d 'Show this help and exit'

# protect
complete -c shotguard -n '__shotguard_using protect' -l window -x -a '(__shotguard_window_ids)' -d 'The window (a frame means its client)'
complete -c shotguard -n '__shotguard_using protect' -l pick -d 'Click the window (Escape cancels)'
complete -c shotguard -n '__shotguard_using protect' -l off -d 'Clear the request instead of setting it'
complete -c shotguard -n '__shotguard_using protect' -s h -l help -d 'Show this help and exit'

# quarantine list
complete -c shotguard -n '__shotguard_using "quarantine list"' -l json -d 'Print one JSON array of the entries'
complete -c shotguard -n '__shotguard_using "quarantine list"' -s h -l help -d 'Show this help and exit'

# quarantine restore
complete -c shotguard -n '__shotguard_using "quarantine restore"' -a '(__shotguard_quarantine_ids)' -d 'ID'
complete -c shotguard -n '__shotguard_using "quarantine restore"' -s o -l output -r -F -d 'Write the original to PATH instead of the path it was taken from'
complete -c shotguard -n '__shotguard_using "quarantine restore"' -l force -d 'Replace a file at the path that guard did not leave there'
complete -c shotguard -n '__shotguard_using "quarantine restore"' -s h -l help -d 'Show this help and exit'

# quarantine purge
complete -c shotguard -n '__shotguard_using "quarantine purge"' -l older-than -x -d 'Delete only entries older than DURATION (7d, 12h; a bare number is days)'
complete -c shotguard -n '__shotguard_using "quarantine purge"' -s h -l help -d 'Show this help and exit'

# redact
complete -c shotguard -n '__shotguard_using redact' -F -d 'IN'
complete -c shotguard -n '__shotguard_using redact' -s o -l output -r -F -d 'Write the image to FILE (atomically), in the format its extension names (.png .jpg .jpeg .webp .bmp .gif .tiff .tif .ppm .pgm .pbm .pnm .pam .ico .avif .xwd); \'-\' writes PNG to stdout'
complete -c shotguard -n '__shotguard_using redact' -l regions -r -F -d 'Read rules from FILE instead of $XDG_CONFIG_HOME/shotguard/regions'
complete -c shotguard -n '__shotguard_using redact' -l rect -x -d 'Also cover this rectangle of the image (repeatable; % and -X/-Y allowed)'
complete -c shotguard -n '__shotguard_using redact' -l fill -x -a 'black pixelate pixelate:16 \#' -d 'Cover for --rect: black (default), #rrggbb or pixelate[:N] (weaker)'
complete -c shotguard -n '__shotguard_using redact' -l origin -x -d 'Where the image\'s top-left corner was on screen, for rules (default +0+0)'
complete -c shotguard -n '__shotguard_using redact' -l format -x -a 'png jpg jpeg webp bmp gif tiff tif ppm pgm pbm pnm pam ico avif xwd' -d 'Write FORMAT whatever FILE\'s extension says: png, jpg, jpeg, webp, bmp, gif, tiff, tif, ppm, pgm, pbm, pnm, pam, ico, avif, xwd'
complete -c shotguard -n '__shotguard_using redact' -l quality -x -a '50 75 90 100' -d 'Quality 1-100 for JPEG, WebP and AVIF output (default 90)'
complete -c shotguard -n '__shotguard_using redact' -l compression -x -a '0 1 2 3 4 5 6 7 8 9' -d 'zlib level 0-9 for the PNG (default 1: fast; 9: smallest)'
complete -c shotguard -n '__shotguard_using redact' -s h -l help -d 'Show this help and exit'

# regions add
complete -c shotguard -n '__shotguard_using "regions add"' -l pick -d 'Click a window to protect it, or drag over part of one (Escape cancels)'
complete -c shotguard -n '__shotguard_using "regions add"' -l preset -x -d 'Add the shipped preset NAME (a password manager, a chat sidebar...)'
complete -c shotguard -n '__shotguard_using "regions add"' -l list-presets -d 'List the shipped presets and what each protects'
complete -c shotguard -n '__shotguard_using "regions add"' -l regions -r -F -d 'Read rules from FILE instead of $XDG_CONFIG_HOME/shotguard/regions'
complete -c shotguard -n '__shotguard_using "regions add"' -s h -l help -d 'Show this help and exit'

# regions check
complete -c shotguard -n '__shotguard_using "regions check"' -l regions -r -F -d 'Read rules from FILE instead of $XDG_CONFIG_HOME/shotguard/regions'
complete -c shotguard -n '__shotguard_using "regions check"' -s h -l help -d 'Show this help and exit'

# regions show
complete -c shotguard -n '__shotguard_using "regions show"' -s o -l output -r -F -d 'Write the PNG to FILE (atomically); \'-\' writes to standard output'
complete -c shotguard -n '__shotguard_using "regions show"' -l regions -r -F -d 'Read rules from FILE instead of $XDG_CONFIG_HOME/shotguard/regions'
complete -c shotguard -n '__shotguard_using "regions show"' -l no-shm -d 'Capture with XGetImage even where MIT-SHM is available'
complete -c shotguard -n '__shotguard_using "regions show"' -l compression -x -a '0 1 2 3 4 5 6 7 8 9' -d 'zlib level 0-9 for the PNG (default 1: fast; 9: smallest)'
complete -c shotguard -n '__shotguard_using "regions show"' -s h -l help -d 'Show this help and exit'

# reports follow
complete -c shotguard -n '__shotguard_using "reports follow"' -l json -d 'Print each report as one JSON line (its report.json)'
complete -c shotguard -n '__shotguard_using "reports follow"' -s h -l help -d 'Show this help and exit'

# reports list
complete -c shotguard -n '__shotguard_using "reports list"' -l json -d 'Print one JSON array of the reports'
complete -c shotguard -n '__shotguard_using "reports list"' -l spool -x -a '(__fish_complete_directories)' -d 'Use the reports in DIR (default $XDG_STATE_HOME/shotguard/reports)'
complete -c shotguard -n '__shotguard_using "reports list"' -s h -l help -d 'Show this help and exit'

# reports purge
complete -c shotguard -n '__shotguard_using "reports purge"' -l older-than -x -d 'Delete only reports older than DURATION (30m, 12h, 7d)'
complete -c shotguard -n '__shotguard_using "reports purge"' -l spool -x -a '(__fish_complete_directories)' -d 'Use the reports in DIR (default $XDG_STATE_HOME/shotguard/reports)'
complete -c shotguard -n '__shotguard_using "reports purge"' -s h -l help -d 'Show this help and exit'

# reports send
complete -c shotguard -n '__shotguard_using "reports send"' -l wait -x -d 'Without an agent, wait at most SECONDS for the uploads (default 60)'
complete -c shotguard -n '__shotguard_using "reports send"' -s h -l help -d 'Show this help and exit'

# resume
complete -c shotguard -n '__shotguard_using resume' -s h -l help -d 'Show this help and exit'

# shield
complete -c shotguard -n '__shotguard_using shield' -a '(__fish_complete_command)' -d '--'
complete -c shotguard -n '__shotguard_using shield' -l regions -r -F -d 'Read rules from FILE instead of $XDG_CONFIG_HOME/shotguard/regions'
complete -c shotguard -n '__shotguard_using shield' -l key-wait -d 'Run COMMAND once no key is held (at most 2 s): a binding on the key\'s press and a tool that grabs the keyboard (scrot -s, maim -s)'
complete -c shotguard -n '__shotguard_using shield' -l limit -x -d 'Lower the covers after SECONDS if COMMAND has not read the screen (default 60)'
complete -c shotguard -n '__shotguard_using shield' -l verbose -d 'Say on standard error what was covered and what lowered the covers'
complete -c shotguard -n '__shotguard_using shield' -s h -l help -d 'Show this help and exit'

# status
complete -c shotguard -n '__shotguard_using status' -l json -d 'Print one JSON object instead of lines of text'
complete -c shotguard -n '__shotguard_using status' -s h -l help -d 'Show this help and exit'

# watch
complete -c shotguard -n '__shotguard_using watch' -l regions -r -F -d 'Read rules from FILE instead of $XDG_CONFIG_HOME/shotguard/regions'
complete -c shotguard -n '__shotguard_using watch' -l dir -x -a '(__fish_complete_directories)' -d 'Also watch DIR for screenshots (repeatable; it may not exist yet)'
complete -c shotguard -n '__shotguard_using watch' -l tool-class -x -d 'Also treat windows of WM_CLASS CLASS as a screenshot tool (repeatable)'
complete -c shotguard -n '__shotguard_using watch' -l spool -x -a '(__fish_complete_directories)' -d 'Write reports into DIR (default $XDG_STATE_HOME/shotguard/reports)'
complete -c shotguard -n '__shotguard_using watch' -l keep -x -d 'Keep the newest N reports in the spool, removing the oldest (default 500)'
complete -c shotguard -n '__shotguard_using watch' -l keep-for -x -d 'Keep reports for DURATION (30m, 12h, 7d; default 1d) or \'forever\''
complete -c shotguard -n '__shotguard_using watch' -l keep-unredacted -d 'Also keep the image of a screenshot no rule touched (by default only its report)'
complete -c shotguard -n '__shotguard_using watch' -l exec -x -a '(__fish_complete_command)' -d 'Run CMD through /bin/sh for each report, with SHOTGUARD_IMAGE and SHOTGUARD_REPORT'
complete -c shotguard -n '__shotguard_using watch' -l report-to -x -d 'Also send each report to DEST: sentry:DSN, an https:// webhook, or exec:CMD (repeatable; queued on disk)'
complete -c shotguard -n '__shotguard_using watch' -l report-header-file -r -F -d 'Send the headers in FILE (\'Name: value\' lines, mode 0600) with each webhook request'
complete -c shotguard -n '__shotguard_using watch' -l report-ask -d 'Send a report only when you choose \'Report this screenshot…\' on its notification'
complete -c shotguard -n '__shotguard_using watch' -l report-queue -x -d 'Keep at most N reports waiting to be sent, dropping the oldest (default 2000)'
complete -c shotguard -n '__shotguard_using watch' -l report-queue-size -x -d 'Keep at most SIZE of reports waiting (512M, 2G; default 1G)'
complete -c shotguard -n '__shotguard_using watch' -l report-queue-for -x -d 'Drop a report that waited longer than DURATION (12h, 7d; default 7d) or \'forever\''
complete -c shotguard -n '__shotguard_using watch' -l json -d 'Print each report as one JSON line on standard output'
complete -c shotguard -n '__shotguard_using watch' -l once -d 'Exit after the first report'
complete -c shotguard -n '__shotguard_using watch' -l verbose -d 'Log every signal and decision'
complete -c shotguard -n '__shotguard_using watch' -l no-files -d 'Do not watch folders for screenshot files'
complete -c shotguard -n '__shotguard_using watch' -l no-clipboard -d 'Do not watch the clipboard'
complete -c shotguard -n '__shotguard_using watch' -l no-tools -d 'Do not watch for screenshot tools\' windows'
complete -c shotguard -n '__shotguard_using watch' -l no-guard -d 'Only report: leave screenshot files and the clipboard as the tool made them'
complete -c shotguard -n '__shotguard_using watch' -l no-notify -d 'Show no desktop notifications'
complete -c shotguard -n '__shotguard_using watch' -l no-tray -d 'Show no tray icon (XEmbed system tray or StatusNotifierItem)'
complete -c shotguard -n '__shotguard_using watch' -l no-indicator -d 'Show no mark on screen while a program records the screen'
complete -c shotguard -n '__shotguard_using watch' -l shield -d 'Cover what the rules hit the moment Print is pressed, before the tool reads the screen'
complete -c shotguard -n '__shotguard_using watch' -l no-shield -d 'Do not cover what the rules hit while a program records or shares the screen'
complete -c shotguard -n '__shotguard_using watch' -l shield-key -x -a 'Print Sys_Req Pause Scroll_Lock Insert Menu F1 F2 F3 F4 F5 F6 F7 F8 F9 F10 F11 F12' -d 'Also shield on the key KEYSYM, with any modifiers (repeatable; with --shield)'
complete -c shotguard -n '__shotguard_using watch' -l no-read-ahead -d 'Do not read the screen\'s text ahead of screenshots (text rules then OCR the screenshot itself)'
complete -c shotguard -n '__shotguard_using watch' -l no-shm -d 'Capture with XGetImage even where MIT-SHM is available'
complete -c shotguard -n '__shotguard_using watch' -l compression -x -a '0 1 2 3 4 5 6 7 8 9' -d 'zlib level 0-9 for the PNG (default 1: fast; 9: smallest)'
complete -c shotguard -n '__shotguard_using watch' -l config -r -F -d 'Read settings from FILE instead of $XDG_CONFIG_HOME/shotguard/agent.conf'
complete -c shotguard -n '__shotguard_using watch' -s h -l help -d 'Show this help and exit'

# windows
complete -c shotguard -n '__shotguard_using windows' -l json -d 'Print a JSON array instead of a table'
complete -c shotguard -n '__shotguard_using windows' -l ids -d 'Print only the window ids, one per line (for shell completion)'
complete -c shotguard -n '__shotguard_using windows' -s h -l help -d 'Show this help and exit'
