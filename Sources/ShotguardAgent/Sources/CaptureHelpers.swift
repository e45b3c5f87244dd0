// Programs that read the screen past the X server (NVIDIA's NvFBC, DRM/KMS capture), recognised from what /proc shows of them.
import Glibc
import ShotguardBase

/// A process recognised as reading the screen by a path no X11 client sees: its frames come
/// from the driver (NvFBC) or the kernel's frame buffers (DRM/KMS), never through a request to
/// the X server. The agent cannot see what they read, so while one runs every protected area
/// stays covered. Pure: the recognition of one process from its details and its mapped files.
enum CaptureHelper: Equatable, Sendable {
    /// NVIDIA's frame buffer capture library mapped into the process (gpu-screen-recorder,
    /// OBS's NvFBC source, Sunshine).
    case nvFBC
    /// gpu-screen-recorder's privileged helper that reads DRM frame buffers.
    case kmsServer
    /// ffmpeg's `kmsgrab` input device.
    case kmsGrab

    /// What it uses, as the log, `status` and the notification say it.
    var means: String {
        switch self {
        case .nvFBC: "NVIDIA NvFBC"
        case .kmsServer: "DRM/KMS, gsr-kms-server"
        case .kmsGrab: "DRM/KMS, ffmpeg -f kmsgrab"
        }
    }

    /// The executables whose start is watched (IN_OPEN on the file, which execve opens).
    static let executables = ["gsr-kms-server", "ffmpeg"]
    /// The library whose loading is watched (IN_OPEN on the file, which dlopen opens), and
    /// looked for in processes' maps.
    static let library = "libnvidia-fbc.so"

    /// What `process` is, if a capture helper: by its name (the kernel's, its executable's or
    /// its first argument's: a root helper's executable cannot be read), its arguments, and
    /// `hasLibrary` (whether `library` is in its maps).
    static func recognise(_ process: ProcessDetails, hasLibrary: Bool) -> CaptureHelper? {
        if hasLibrary { return .nvFBC }
        let names = [process.program, process.executable.map { String(decoding: $0, as: UTF8.self) }, process.arguments.first]
            .compactMap { $0?.split(separator: "/").last.map(String.init) }
        if names.contains("gsr-kms-server") { return .kmsServer }
        if names.contains("ffmpeg"), process.arguments.contains("kmsgrab") { return .kmsGrab }
        return nil
    }

    /// The folders the executables are looked for in: `PATH`'s, and the usual ones.
    static func executableFolders(path: String?) -> [String] {
        unique((path ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
            + ["/usr/bin", "/usr/local/bin", "/usr/libexec"])
    }

    /// The folders the library is looked for in: `LD_LIBRARY_PATH`'s, those of the loader's
    /// configuration (`/etc/ld.so.conf.d/*.conf`, absolute lines), and the usual ones.
    static func libraryFolders(libraryPath: String?, configured: [String]) -> [String] {
        unique((libraryPath ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") } + configured
            + ["/usr/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu/nvidia/current", "/usr/lib64", "/usr/lib", "/usr/lib/nvidia",
               "/lib/x86_64-linux-gnu", "/lib64"])
    }

    /// The folders a loader configuration file names (`include` lines and comments aside).
    static func configuredFolders(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }
            .map { $0.trimmingCharacters(in: " \t") }.filter { $0.hasPrefix("/") }
    }

    private static func unique(_ folders: [String]) -> [String] {
        var seen = Set<String>()
        return folders.filter { seen.insert($0).inserted }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let isTrimmed: (Character) -> Bool = { set.contains($0) }
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(self[first...last])
    }
}

/// The capture helpers running now, for `shotguard doctor`: every process looked at, its maps
/// too (one look, not a watch).
public enum CaptureHelpersRunning {
    public static func now() -> [(pid: Int32, program: String, means: String)] {
        let own = getpid()
        return ProcessList.all().filter { $0 != own }.compactMap { pid in
            guard let details = ProcessDetails.of(pid: pid),
                  let helper = CaptureHelper.recognise(details, hasLibrary: ProcessList.maps(of: pid, contain: CaptureHelper.library))
            else { return nil }
            return (pid, details.program, helper.means)
        }
    }
}
