#!/bin/sh
# make install and make uninstall. Install copies shotguard's files under DESTDIR, and writes a
# manifest of what it wrote and of every folder it had to make; uninstall removes exactly those
# files, then those folders once they are empty, so a folder that was there before (one that
# zsh or base-files made) stays.
#
#   packaging/install.sh install BINARY
#   packaging/install.sh uninstall
#
# The Makefile passes BINDIR, MANDIR, BASHCOMPDIR, ZSHCOMPDIR, FISHCOMPDIR, SYSTEMDUSERDIR,
# SHAREDIR (the folder of the desktop entry), AUTOSTARTDIR, AUTOSTART (1 to install the entry
# there), MANIFEST (empty: none, as a distribution package wants), STRIP and DESTDIR.
set -eu
: "${BINDIR:?}" "${MANDIR:?}" "${BASHCOMPDIR:?}" "${ZSHCOMPDIR:?}" "${FISHCOMPDIR:?}" "${SYSTEMDUSERDIR:?}" \
  "${SHAREDIR:?}" "${AUTOSTARTDIR:?}"
DESTDIR=${DESTDIR:-}
# The hold helper and its system unit: only when SYSTEMDSYSTEMDIR is set (a system-wide PREFIX).
LIBEXECDIR=${LIBEXECDIR:-}
SYSTEMDSYSTEMDIR=${SYSTEMDSYSTEMDIR:-}
AUTOSTART=${AUTOSTART:-0}
MANIFEST=${MANIFEST:-}
STRIP=${STRIP:-strip}
cd "$(dirname "$0")/.."
# Lists are one path a line: a PREFIX may hold spaces (a home folder's name), never a newline.
set -f
IFS='
'

# The files install writes, without DESTDIR: the ones uninstall removes when there is no manifest.
files="$BINDIR/shotguard
$MANDIR/man1/shotguard.1
$MANDIR/man5/shotguard-regions.5
$MANDIR/man5/shotguard-agent.conf.5
$BASHCOMPDIR/shotguard
$ZSHCOMPDIR/_shotguard
$FISHCOMPDIR/shotguard.fish
$SYSTEMDUSERDIR/shotguard.service
$SHAREDIR/shotguard.desktop"
# The presets of 'regions add --preset', one file each (globbing is off: ls lists them).
presets=$(ls presets)
for preset in $presets; do
    files="$files
$SHAREDIR/presets/$preset"
done
if [ "$AUTOSTART" = 1 ]; then
    files="$files
$AUTOSTARTDIR/shotguard.desktop"
fi
if [ -n "$SYSTEMDSYSTEMDIR" ]; then
    files="$files
$LIBEXECDIR/shotguard-hold
$MANDIR/man8/shotguard-hold.8
$SYSTEMDSYSTEMDIR/shotguard-hold.service"
fi

# Prints "$1" and each of its parents that does not exist under DESTDIR, deepest first.
missing_folders() {
    folder=$1
    while [ "$folder" != / ] && [ ! -d "$DESTDIR$folder" ]; do
        echo "$folder"
        folder=$(dirname "$folder")
    done
}

install_files() {
    binary=$1
    made=""
    for file in $files; do
        made="$made
$(missing_folders "$(dirname "$file")")"
    done
    made=$(printf '%s\n' "$made" | sed '/^$/d' | LC_ALL=C sort -ru)
    for file in $files; do install -d "$DESTDIR$(dirname "$file")"; done

    install -m 755 "$binary" "$DESTDIR$BINDIR/shotguard"
    $STRIP "$DESTDIR$BINDIR/shotguard"
    install -m 644 man/shotguard.1 "$DESTDIR$MANDIR/man1/shotguard.1"
    install -m 644 man/shotguard-regions.5 "$DESTDIR$MANDIR/man5/shotguard-regions.5"
    install -m 644 man/shotguard-agent.conf.5 "$DESTDIR$MANDIR/man5/shotguard-agent.conf.5"
    for preset in $presets; do install -m 644 "presets/$preset" "$DESTDIR$SHAREDIR/presets/$preset"; done
    install -m 644 completions/shotguard.bash "$DESTDIR$BASHCOMPDIR/shotguard"
    install -m 644 completions/_shotguard "$DESTDIR$ZSHCOMPDIR/_shotguard"
    install -m 644 completions/shotguard.fish "$DESTDIR$FISHCOMPDIR/shotguard.fish"
    # The installed binary's path, so neither needs shotguard on PATH.
    sed "s|^ExecStart=/usr/local/bin/shotguard|ExecStart=$BINDIR/shotguard|" packaging/shotguard.service \
        > "$DESTDIR$SYSTEMDUSERDIR/shotguard.service"
    chmod 644 "$DESTDIR$SYSTEMDUSERDIR/shotguard.service"
    sed -e "s|^TryExec=shotguard\$|TryExec=$BINDIR/shotguard|" -e "s|^Exec=shotguard |Exec=$BINDIR/shotguard |" \
        packaging/shotguard.desktop > "$DESTDIR$SHAREDIR/shotguard.desktop"
    chmod 644 "$DESTDIR$SHAREDIR/shotguard.desktop"
    if [ "$AUTOSTART" = 1 ]; then
        install -m 644 "$DESTDIR$SHAREDIR/shotguard.desktop" "$DESTDIR$AUTOSTARTDIR/shotguard.desktop"
    fi
    if [ -n "$SYSTEMDSYSTEMDIR" ]; then
        # The helper is built beside the agent's binary.
        install -m 755 "$(dirname "$binary")/shotguard-hold" "$DESTDIR$LIBEXECDIR/shotguard-hold"
        $STRIP "$DESTDIR$LIBEXECDIR/shotguard-hold"
        install -m 644 man/shotguard-hold.8 "$DESTDIR$MANDIR/man8/shotguard-hold.8"
        sed "s|^ExecStart=/usr/local/libexec/shotguard/shotguard-hold|ExecStart=$LIBEXECDIR/shotguard-hold|" \
            packaging/shotguard-hold.service > "$DESTDIR$SYSTEMDSYSTEMDIR/shotguard-hold.service"
        chmod 644 "$DESTDIR$SYSTEMDSYSTEMDIR/shotguard-hold.service"
    fi

    if [ -n "$MANIFEST" ]; then
        # Files first, then the folders deepest first: the order uninstall removes them in.
        { echo "$MANIFEST"; printf '%s\n' $files; [ -z "$made" ] || printf '%s\n' "$made"; } > "$DESTDIR$MANIFEST"
        chmod 644 "$DESTDIR$MANIFEST"
    fi
}

# Links to the unit that enabling it made (`systemctl --user enable`: a user's configuration;
# `systemctl --global enable`: /etc/systemd/user), removed before the unit goes, so that no
# dangling link is left to it. Only on the real system (no DESTDIR), only links to the unit this
# install wrote or links that already dangle, and only the invoking user's configuration (and
# the one of the user who ran sudo): other users' home folders are theirs.
remove_unit_links() {
    [ -z "$DESTDIR" ] || return 0
    unit="$SYSTEMDUSERDIR/shotguard.service"
    folders="/etc/systemd/user"
    [ -z "${HOME:-}" ] || folders="$folders
${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user"
    if [ -n "${SUDO_USER:-}" ]; then
        sudo_home=$(getent passwd "$SUDO_USER" | cut -d: -f6)
        [ -z "$sudo_home" ] || folders="$folders
$sudo_home/.config/systemd/user"
    fi
    for folder in $folders; do
        [ -d "$folder" ] || continue
        set +f
        for link in "$folder"/*.wants/shotguard.service "$folder"/*.requires/shotguard.service; do
            [ -L "$link" ] || continue
            if [ "$(readlink "$link")" = "$unit" ] || [ ! -e "$link" ]; then
                rm -f "$link"
                echo "removed $link (the unit was enabled)"
            fi
        done
        set -f
    done
}

# The hold helper's system unit, when this install wrote one: stopped and disabled before it goes
# (on the real system only), so that neither a running helper nor a dangling link is left.
remove_system_unit() {
    [ -z "$DESTDIR" ] && [ -n "$SYSTEMDSYSTEMDIR" ] && [ -f "$SYSTEMDSYSTEMDIR/shotguard-hold.service" ] || return 0
    if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
        systemctl disable --now shotguard-hold.service >/dev/null 2>&1 || true
    fi
    set +f
    for link in /etc/systemd/system/*.wants/shotguard-hold.service; do
        [ -L "$link" ] || continue
        if [ "$(readlink "$link")" = "$SYSTEMDSYSTEMDIR/shotguard-hold.service" ] || [ ! -e "$link" ]; then
            rm -f "$link"
            echo "removed $link (the helper was enabled)"
        fi
    done
    set -f
}

uninstall_files() {
    remove_unit_links
    remove_system_unit
    if [ -n "$MANIFEST" ] && [ -f "$DESTDIR$MANIFEST" ]; then
        entries=$(cat "$DESTDIR$MANIFEST")
    else
        entries=$files
    fi
    printf '%s\n' "$entries" | while IFS= read -r entry; do
        [ -n "$entry" ] || continue
        if [ -d "$DESTDIR$entry" ]; then
            rmdir "$DESTDIR$entry" 2>/dev/null || true
        else
            rm -f "$DESTDIR$entry"
        fi
    done
}

case "${1:-}" in
    install) install_files "${2:?packaging/install.sh install needs the binary}" ;;
    uninstall) uninstall_files ;;
    *) echo "usage: $0 install BINARY | uninstall" >&2; exit 2 ;;
esac
