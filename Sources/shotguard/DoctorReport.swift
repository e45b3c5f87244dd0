// What `shotguard doctor` found, as values, and the one screen (or JSON object) it prints.
import ShotguardBase
import ShotguardImaging

/// One thing that protects the session, or does not.
struct DoctorItem {
    enum State: String {
        /// It works as protection needs.
        case covered
        /// Protection has a hole here; `fix` says what closes it.
        case hole
        /// Worth knowing; protection does not depend on it.
        case note
    }

    let name: String
    let state: State
    let detail: String
    var fix: String? = nil
}

/// The screen and recording programs `doctor` knows: how the agent sees each one.
enum CaptureProgram {
    enum Seen {
        /// Its reads of the screen go through the X server: RECORD shows them.
        case reads
        /// A screenshot tool whose window, file and clipboard image the agent follows.
        case tool
        /// It reads the screen by a path no X11 client sees.
        case unseen(String)
        /// Something to know about it, protection aside.
        case note(String)
    }

    /// A browser's screen and window shares (libwebrtc), as the agent sees them.
    static let browser = Seen.note("its screen and window shares are seen (copies of the screen into a shared pixmap): protected "
        + "areas in what it shares are covered from its second frame; a tab it shares is read inside the browser, never seen")

    static let known: [(program: String, seen: Seen)] = [
        ("scrot", .reads), ("maim", .reads), ("import", .reads), ("xwd", .reads), ("ffmpeg", .reads),
        ("obs", .note("its screen capture (XSHM) is seen and covered; its window capture (Xcomposite) is seen, but a window's "
            + "own contents cannot be covered; its NvFBC source is recognised and everything protected is covered while it runs")),
        ("simplescreenrecorder", .reads), ("recordmydesktop", .reads), ("peek", .reads), ("kazam", .reads),
        ("vokoscreenNG", .reads), ("x11vnc", .reads),
        ("gnome-screenshot", .tool), ("xfce4-screenshooter", .tool), ("mate-screenshot", .tool), ("flameshot", .tool),
        ("spectacle", .tool), ("ksnip", .tool), ("shutter", .tool),
        ("gpu-screen-recorder", .note("reads through NVIDIA's NvFBC or its DRM/KMS helper gsr-kms-server, past the X server: "
            + "recognised while it runs, and every protected area is covered then")),
        ("firefox", browser), ("chromium", browser), ("google-chrome", browser),
    ]

    /// Capture paths no X11 client can see, whatever runs, by program: what happens to each.
    static let unseenPaths: [(path: String, why: String)] = [
        ("browser tab sharing (Meet, Zoom, Teams in a tab)", "the browser reads its own tab: no request reaches the X server, "
            + "nothing is covered (share a window or the screen instead)"),
        ("NVIDIA NvFBC (gpu-screen-recorder, OBS's NvFBC source)", "the driver hands frames out of band: a process with "
            + "libnvidia-fbc loaded is recognised, and every protected area is covered while it runs"),
        ("DRM/KMS capture (gsr-kms-server, ffmpeg -f kmsgrab)", "a privileged helper reads the frame buffer: these two are "
            + "recognised, and every protected area is covered while they run; other KMS readers are not seen"),
        ("a remote desktop server on its own frame buffer (Xvnc, xrdp's Xorg)", "the server is the X server: it reads "
            + "itself, nothing is seen (x11vnc and x0vncserver read through the X server and are seen)"),
        ("one window's own contents (OBS's window capture, a browser sharing one window)", "seen and said, but the shield's "
            + "covers are windows of their own, not part of that window: a protected window shared this way shows"),
        ("Wayland sessions", "the compositor captures; native windows have no X server in between"),
    ]
}

/// Everything `doctor` found.
struct DoctorReport {
    var display: String
    var checks: [DoctorItem]
    var programs: [DoctorItem]

    var holes: Int { (checks + programs).filter { $0.state == .hole }.count }

    func lines() -> [String] {
        var lines = ["shotguard doctor: display \(display.escapingControlCharacters()): "
            + (holes == 0 ? "protection has no hole shotguard can see" : "\(holes) hole\(holes == 1 ? "" : "s") in protection")]
        lines += checks.flatMap(Self.lines)
        lines.append("programs that can capture the screen:")
        lines += programs.isEmpty ? ["  none of those shotguard knows is installed"] : programs.flatMap(Self.lines)
        lines.append("capture paths no X11 client can see, and what the agent does about each:")
        lines += CaptureProgram.unseenPaths.map { "  \($0.path): \($0.why)" }
        return lines
    }

    private static func lines(_ item: DoctorItem) -> [String] {
        let state = item.state == .hole ? "HOLE" : item.state.rawValue
        var lines = ["  " + state.padding(8) + item.name.padding(22) + item.detail.escapingControlCharacters()]
        if let fix = item.fix { lines.append("  " + "".padding(31) + "fix: " + fix.escapingControlCharacters()) }
        return lines
    }

    func json() -> JSON {
        func object(_ item: DoctorItem) -> JSON {
            .object([("name", .string(item.name)), ("state", .string(item.state.rawValue)), ("detail", .string(item.detail)),
                     ("fix", item.fix.map { .string($0) } ?? .null)])
        }
        return .object([
            ("display", .string(display)), ("holes", .number(holes)), ("checks", .array(checks.map(object))),
            ("programs", .array(programs.map(object))),
            ("unseen", .array(CaptureProgram.unseenPaths.map { .object([("path", .string($0.path)), ("why", .string($0.why))]) })),
        ])
    }
}

extension String {
    /// Padded with spaces to `width` characters, and one more space after.
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(1, width - count + 1)) }
}
