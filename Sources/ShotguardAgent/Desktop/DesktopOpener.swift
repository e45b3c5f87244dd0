// Opens a folder or a file in the user's programs (the menu's reports folder, rules, quarantine)
// with xdg-open, never waiting for it and never taking it down with the agent.
import Glibc
import ShotguardBase

/// Runs `xdg-open PATH` through a shell that starts it in the background and exits at once:
/// xdg-open (and the file manager or editor it starts) is then no child of the agent, in a
/// session of its own, so it outlives the agent and a signal to the agent never reaches it.
/// The shells are reaped each turn.
final class DesktopOpener {
    private var shells: [ChildProcess] = []
    private let log: Log

    init(log: Log) {
        self.log = log
    }

    /// Opens `path`; false (logged) when xdg-open is not installed or cannot be started.
    @discardableResult
    func open(_ path: String) -> Bool {
        guard programExists("xdg-open") else {
            log.warning("cannot open \(path): xdg-open is not installed (Debian: xdg-utils)")
            return false
        }
        do throws(SystemError) {
            shells.append(try ChildProcess("/bin/sh", ["-c", "xdg-open \"$1\" >/dev/null 2>&1 &", "sh", path], newSession: true))
            log.info("opening \(path)")
            return true
        } catch {
            log.warning("cannot open \(path): \(error)")
            return false
        }
    }

    /// Opens the regions file in the user's editor, made first (with a line saying what it is
    /// for) when there is none yet: an empty file protects nothing, as no file does.
    func edit(_ regions: String) {
        if access(regions, F_OK) != 0 {
            if let slash = regions.lastIndex(of: "/") { makeFolders(String(regions[..<slash])) }
            let fd = Glibc.open(regions, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 {
                let header = "# shotguard's regions: one rule a line (man 5 shotguard-regions).\n"
                    + "# 'shotguard regions add --pick' adds one: click a window, or drag over a part of it.\n"
                do throws(FileError) {
                    let file = FileDescriptor(fd, name: regions)
                    try file.writeAll(header)
                    try file.close()
                } catch {
                    log.warning("cannot write \(regions): \(error)")
                }
            }
        }
        open(regions)
    }

    /// Reaps the shells that have exited (each exits as soon as xdg-open is started).
    func reap() { shells.removeAll { $0.hasExited } }

    private func makeFolders(_ path: String) {
        var prefix = ""
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if access(prefix, F_OK) != 0 { mkdir(prefix, 0o755) }
        }
    }
}
