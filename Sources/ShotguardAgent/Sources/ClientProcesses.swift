// Which process is behind a window: its pid (X-Resource, else _NET_WM_PID) and what /proc says of it.
import Glibc
import ShotguardBase
import ShotguardX11

enum ClientProcesses {
    /// The process that owns `window`, or nil when neither X-Resource nor `_NET_WM_PID` tells
    /// (a remote client) or /proc cannot be read.
    static func of(window: UInt, on display: Display) -> ProcessIdentity? {
        guard let pid = display.cardinals("_NET_WM_PID", of: window)?.first, pid > 0, let value = Int32(exactly: pid) else {
            return nil
        }
        return identity(of: value)
    }

    /// What /proc says of `pid`: its name, parent and process group.
    static func identity(of pid: Int32) -> ProcessIdentity? {
        guard let comm = try? FileIO.read("/proc/\(pid)/comm", limit: 256) else { return nil }
        let program = String(decoding: comm, as: UTF8.self).trimmingCharacters(in: "\n")
        var identity = ProcessIdentity(pid: pid, program: program)
        // /proc/PID/stat: "pid (comm) state ppid pgrp ..."; comm may hold spaces and ')'.
        if let stat = try? FileIO.read("/proc/\(pid)/stat", limit: 4096), let close = stat.lastIndex(of: UInt8(ascii: ")")) {
            let fields = String(decoding: stat[(close + 1)...], as: UTF8.self).split(separator: " ")
            if fields.count > 2 {
                identity.parentPID = Int32(fields[1])
                identity.processGroup = Int32(fields[2])
            }
        }
        return identity
    }
}
