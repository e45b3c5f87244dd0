// Notices capture helpers starting (inotify on their executables and on NvFBC's library) and ending (pidfd).
import Glibc
import ShotguardBase

/// A capture helper that started or ended.
enum CaptureHelperChange: Equatable, Sendable {
    case started(pid: Int32, helper: CaptureHelper, process: ProcessDetails)
    case ended(pid: Int32)
}

/// Watches for the programs of `CaptureHelper`: the kernel says when a watched executable is
/// run or the NvFBC library loaded (`IN_OPEN` on the file: execve and dlopen open it), and /proc
/// then says which process it is; a pidfd says when it exits. Nothing wakes the agent while
/// none is started: no polling. The process is looked at again a moment after the open, since
/// at the open a starting program still has its old name, and a library is mapped after it is
/// opened.
final class CaptureHelperWatch {
    let fileDescriptor: Int32
    /// Watches on the executables and on the library, by watch descriptor: whether it is the library.
    private var watches: [Int32: Bool] = [:]
    /// The helpers running, with their pidfds.
    private var running: [Int32: (helper: CaptureHelper, exit: Int32)] = [:]
    /// When to look at /proc again, and whether for the library too.
    private var rescans: [(at: Double, library: Bool)] = []
    private let names: Set<String> = ["gsr-kms-server", "ffmpeg"]

    /// Seconds after an open at which /proc is looked at again.
    static let rescanDelays = [0.1, 0.5, 2.0]

    /// Watches the files that exist (the folders of `environment`'s `PATH` and `LD_LIBRARY_PATH`,
    /// else this process's); nil when inotify cannot be had.
    init?(environment: [String: String] = [:]) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        fileDescriptor = descriptor
        let path = environment["PATH"] ?? getenv("PATH").map { String(cString: $0) }
        let libraryPath = environment["LD_LIBRARY_PATH"] ?? getenv("LD_LIBRARY_PATH").map { String(cString: $0) }
        for folder in CaptureHelper.executableFolders(path: path) {
            for name in CaptureHelper.executables { watch(folder + "/" + name, library: false) }
        }
        for folder in CaptureHelper.libraryFolders(libraryPath: libraryPath, configured: Self.configuredLibraryFolders()) {
            for name in Self.entries(of: folder) where name.hasPrefix(CaptureHelper.library) {
                watch(folder + "/" + name, library: true)
            }
        }
    }

    deinit {
        close(fileDescriptor)
        for helper in running.values { close(helper.exit) }
    }

    /// Whether the library is found on this machine (the maps are looked at only then).
    var watchesLibrary: Bool { watches.values.contains(true) }

    /// The descriptors to poll: the inotify one, and each running helper's pidfd.
    var descriptors: [Int32] { [fileDescriptor] + running.values.map(\.exit) }

    /// The next rescan.
    var deadline: Double? { rescans.map(\.at).min() }

    /// The helpers running now (already, at the agent's start).
    func scanNow() -> [CaptureHelperChange] { scan(library: watchesLibrary) }

    /// What `fd` says: a watched file opened (a scan now and again in a moment), or a helper gone.
    func handle(_ fd: Int32, at now: Double) -> [CaptureHelperChange] {
        if fd == fileDescriptor {
            let library = readOpens()
            guard let library else { return [] }
            rescans += Self.rescanDelays.map { (now + $0, library) }
            return scan(library: library)
        }
        guard let pid = running.first(where: { $0.value.exit == fd })?.key, let helper = running.removeValue(forKey: pid) else { return [] }
        close(helper.exit)
        return [.ended(pid: pid)]
    }

    /// The rescans due at `now`.
    func expire(at now: Double) -> [CaptureHelperChange] {
        let due = rescans.filter { $0.at <= now }
        guard !due.isEmpty else { return [] }
        rescans.removeAll { $0.at <= now }
        return scan(library: due.contains { $0.library })
    }

    /// Every process not known yet that is a helper; the library's maps only when asked.
    private func scan(library: Bool) -> [CaptureHelperChange] {
        var changes: [CaptureHelperChange] = []
        let own = getpid()
        for pid in ProcessList.all() where pid != own && running[pid] == nil {
            let named = ProcessList.name(of: pid).map(names.contains) ?? false
            let hasLibrary = library && ProcessList.maps(of: pid, contain: CaptureHelper.library)
            guard named || hasLibrary, let exit = pidfdOpen(pid) else { continue }
            // Looked at after the pidfd was opened: the pid is this process's, or the pidfd says it is gone.
            guard let details = ProcessDetails.of(pid: pid), let helper = CaptureHelper.recognise(details, hasLibrary: hasLibrary) else {
                close(exit)
                continue
            }
            running[pid] = (helper, exit)
            changes.append(.started(pid: pid, helper: helper, process: details))
        }
        return changes
    }

    private func watch(_ path: String, library: Bool) {
        let watch = inotify_add_watch(fileDescriptor, path, UInt32(IN_OPEN))
        if watch >= 0 { watches[watch] = (watches[watch] ?? false) || library }
    }

    /// Drains the inotify events: nil when none is an open, else whether the library was opened.
    private func readOpens() -> Bool? {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var opened: Bool?
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return opened }
            var offset = 0
            buffer.withUnsafeBytes { bytes in
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    if event.mask & UInt32(IN_OPEN) != 0 { opened = (opened ?? false) || (watches[event.wd] ?? false) }
                    if event.mask & UInt32(IN_IGNORED) != 0 { watches[event.wd] = nil }
                    offset += MemoryLayout<inotify_event>.size + Int(event.len)
                }
            }
        }
    }

    /// The names in `folder`; none when it cannot be read.
    private static func entries(of folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while names.count < 65_536, let entry = readdir(directory) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        return names
    }

    /// The folders the loader's configuration names.
    private static func configuredLibraryFolders() -> [String] {
        entries(of: "/etc/ld.so.conf.d").filter { $0.hasSuffix(".conf") }.flatMap { name -> [String] in
            let fd = open("/etc/ld.so.conf.d/" + name, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return [] }
            defer { close(fd) }
            var bytes = [UInt8](repeating: 0, count: 16 * 1024)
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            return count > 0 ? CaptureHelper.configuredFolders(String(decoding: bytes[0..<count], as: UTF8.self)) : []
        }
    }
}
