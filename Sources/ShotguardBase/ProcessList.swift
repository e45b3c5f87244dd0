// Every process /proc shows, and whether one has a given library mapped: to find a program that reads the screen past the X server.
import Glibc

public enum ProcessList {
    /// The most bytes of one process's `/proc/PID/maps` looked at (a browser's is a few hundred
    /// kilobytes).
    public static let mapsLimit = 8 << 20

    /// Every process's pid, at most `ProcessTree.maximumProcesses` of them.
    public static func all() -> [Int32] {
        guard let proc = opendir("/proc") else { return [] }
        defer { closedir(proc) }
        var found: [Int32] = []
        while found.count < ProcessTree.maximumProcesses, let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let pid = Int32(name), pid > 0 { found.append(pid) }
        }
        return found
    }

    /// The kernel's name for process `pid` (`/proc/PID/comm`, at most 15 bytes), nil when it is gone.
    public static func name(of pid: Int32) -> String? {
        guard pid > 0, let bytes = ProcFile.read("/proc/\(pid)/comm", limit: 64) else { return nil }
        return String(decoding: bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...], as: UTF8.self)
    }

    /// Whether process `pid` has a file whose path holds `name` mapped (`/proc/PID/maps`, read a
    /// chunk at a time, at most `mapsLimit` bytes); false when its maps cannot be read (another
    /// user's process, or gone).
    public static func maps(of pid: Int32, contain name: String) -> Bool {
        let needle = Array(name.utf8)
        guard pid > 0, !needle.isEmpty else { return false }
        let fd = open("/proc/\(pid)/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        // The end of the last chunk, kept so that a name cut between two reads is still found.
        var carry: [UInt8] = []
        var total = 0
        while total < mapsLimit {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            total += count
            let text = carry + chunk[0..<count]
            if contains(text, needle) { return true }
            carry = Array(text.suffix(needle.count - 1))
        }
        return false
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count, let first = needle.first else { return false }
        var index = 0
        while index + needle.count <= bytes.count {
            if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
