// What links an image to a capture of this screen: the agent acts only on evidence.
import ShotguardImaging
import ShotguardRegions

/// A program that read the screen, as capture sensing saw it: one recorded GetImage or
/// ShmGetImage, with the process behind the client (X-Resource and /proc).
struct ScreenReadRecord: Equatable, Sendable {
    /// `GetImage` or `ShmGetImage`.
    var request: String
    /// The process's name (`/proc/PID/comm`), or "client 0x…" when X-Resource gives no PID.
    var program: String
    var pid: Int32?
    /// Whether the server no longer had the reading client when asked which process it is (it
    /// closed its connection first): its process may still run, unnamed.
    var readerHungUp = false
    var parentPID: Int32?
    var processGroup: Int32?
    /// What was read, in root coordinates; nil where the drawable cannot be traced (a pixmap).
    var area: Rect?
    var time: Moment
    /// The X client's resource base: one client's reads of one recording share it.
    var client: UInt32
    /// The server time of the request (0 when unknown): a read after a shield key's server
    /// time was made with the covers up.
    var serverTime: UInt = 0
    /// How many reads of the same pixels this one stands for (they came together).
    var repeats = 1
    /// The window read (or whose pixmap was read), when it was not the root: the pixels may
    /// be the window's own where the screen did not show them (under another window or past
    /// the screen's edge, read by a program that redirects it, as `maim -i` does, or through a
    /// compositor's pixmap).
    var window: UInt?
    /// Whether that window is one the rules protect (or its frame): the read holds all of it,
    /// hidden parts too (`RecentProtectedWindows`).
    var ofProtectedWindow = false
    /// What the rules protected inside what was read, around the moment of the read (screen
    /// coordinates). Empty: the read held no protected pixel, and it is no reason to touch
    /// anything its program writes.
    var protected: [RegionHit] = []

    /// Whether the read held pixels a rule protects.
    var holdsProtectedPixels: Bool { !protected.isEmpty }
}

/// A process known by what /proc says of it.
struct ProcessIdentity: Equatable, Sendable {
    var pid: Int32
    var program: String
    var parentPID: Int32?
    var processGroup: Int32?
}

/// How a screen read is tied to an image.
enum ReadLink: String, Sendable {
    /// The process that read the screen is the one offering or writing the image.
    case sameProcess = "the same process"
    /// It is in the same process group (`maim | xclip`).
    case processGroup = "the same process group"
    /// It has the same parent (`scrot s.png && xclip -i s.png` run by one shell).
    case sibling = "a sibling process"
    /// The reading process held the file open for writing, or named it on its command line.
    case writer = "the file it wrote"
    /// A process the reader started wrote it (`scrot -e 'convert $f …'`).
    case childOfReader = "the file a process it started wrote"
    /// A process at the other end of the reader's pipe or socket wrote it (`maim | tee f`).
    case channelOfReader = "the file a process it piped to wrote"
    /// An image that appeared in the reader's working folder while it ran: only where its
    /// pixels are the screen's (anyone may write there).
    case folder = "an image in its working folder"
    /// The file's bytes, or its pixels, are those of a screenshot guard took in before it was
    /// rewritten: a copy made in the moment before the rewrite.
    case copy = "a copy of its screenshot"
    /// A program found recording (a screen share, a recorder) wrote it: it may be a frame, or
    /// anything else the program writes (a browser's download), so it counts only placed.
    case recorder = "a still image the recording program wrote"
    /// The server could not tell the reading process (its client was gone before the agent
    /// asked); a program started on the display as it connected wrote it. Anyone may have: it
    /// counts only placed.
    case inferred = "a program started on the display as the reader connected"
    /// The read's rectangle is where the image was placed on the screen.
    case area = "the same rectangle"
    /// A screenshot-sized read came shortly before a file named as a screenshot appeared (a
    /// tool that scales or converts its capture in a second process).
    case recent = "shortly before"
}

/// The capture evidence for one image. Empty evidence means the agent only knows that some
/// image appeared; it then acts only where its pixels are the screen's (see `GuardPolicy`).
struct Evidence: Equatable, Sendable {
    /// A screen read tied to the image, and how.
    var screenRead: (read: ScreenReadRecord, link: ReadLink)?
    /// A screenshot tool's window was shown in this capture event.
    var toolWindow: String?
    /// The shield's key was pressed in this capture event.
    var shieldKey = false
    /// The clipboard owner's (or the writer's) process is a known screenshot program.
    var screenshotProgram: String?
    /// Its bytes, or its pixels, are those of a screenshot guard redacted or set aside lately
    /// (named here), as it was before guard rewrote it: a copy made from the original.
    var copyOf: String?

    static let none = Evidence()

    var isEmpty: Bool { screenRead == nil && toolWindow == nil && !shieldKey && screenshotProgram == nil && copyOf == nil }

    /// Each piece as a short phrase, for the report and the log.
    var phrases: [String] {
        var phrases: [String] = []
        if let (read, link) = screenRead {
            let pid = read.pid.map { " (pid \($0))" } ?? ""
            phrases.append("screen read by \(read.program)\(pid), \(link.rawValue)")
        }
        if let toolWindow { phrases.append("screenshot tool window (\(toolWindow))") }
        if shieldKey { phrases.append("shield key") }
        if let screenshotProgram { phrases.append("screenshot program (\(screenshotProgram))") }
        if let copyOf { phrases.append("a copy of the screenshot \(copyOf) as it was before guard rewrote it") }
        return phrases
    }

    /// This evidence with the event's own (its tool window, its shield key) added.
    func merged(with other: Evidence) -> Evidence {
        var merged = self
        if merged.screenRead == nil { merged.screenRead = other.screenRead }
        merged.toolWindow = merged.toolWindow ?? other.toolWindow
        merged.shieldKey = merged.shieldKey || other.shieldKey
        merged.screenshotProgram = merged.screenshotProgram ?? other.screenshotProgram
        merged.copyOf = merged.copyOf ?? other.copyOf
        return merged
    }

    static func == (left: Evidence, right: Evidence) -> Bool {
        left.screenRead?.read == right.screenRead?.read && left.screenRead?.link == right.screenRead?.link
            && left.toolWindow == right.toolWindow && left.shieldKey == right.shieldKey
            && left.screenshotProgram == right.screenshotProgram && left.copyOf == right.copyOf
    }
}

/// The programs whose images are screenshots by what they are: a clipboard owner or a writer
/// with one of these names (`/proc/PID/comm`, at most 15 characters) offers a screenshot.
enum ScreenshotPrograms {
    static let names: Set<String> = [
        "scrot", "maim", "flameshot", "spectacle", "ksnip", "gnome-screenshot", "gnome-screensho",
        "xfce4-screensho", "xfce4-screenshooter", "mate-screenshot", "shutter", "deepin-screensh",
        "deepin-screenshot", "screengrab", "import", "import-im6.q16", "import-im7.q16", "magick", "xwd",
        "escrotum", "shotgun", "lximage-qt", "kazam", "peek", "simplescreenrec", "obs",
    ]

    /// Whether `program` (a comm name) is a screenshot program.
    static func contains(_ program: String) -> Bool { names.contains(program.lowercased()) }
}

/// Recent screen reads, bounded, to find the one an image came from.
struct ReadHistory {
    private(set) var reads: [ScreenReadRecord] = []
    /// Reads older than this cannot explain a new image.
    static let horizon = 30.0
    static let capacity = 256

    mutating func add(_ read: ScreenReadRecord) {
        reads.append(read)
        if reads.count > Self.capacity { reads.removeFirst(reads.count - Self.capacity) }
    }

    mutating func prune(at now: Moment) {
        reads.removeAll { now.monotonic - $0.time.monotonic > Self.horizon }
    }

    /// A read by another process of the same group or parent ties it to an image only this soon.
    static let relatedWindow = 10.0

    /// The newest read by `owner`'s process (within the horizon), its process group or a
    /// sibling (within `relatedWindow`).
    func read(relatedTo owner: ProcessIdentity, at now: Moment) -> (read: ScreenReadRecord, link: ReadLink)? {
        for read in reads.reversed() where now.monotonic - read.time.monotonic <= Self.horizon {
            if read.pid == owner.pid { return (read, .sameProcess) }
            guard now.monotonic - read.time.monotonic <= Self.relatedWindow else { continue }
            if let group = owner.processGroup, group > 1, read.processGroup == group { return (read, .processGroup) }
            if let parent = owner.parentPID, parent > 1, read.parentPID == parent { return (read, .sibling) }
        }
        return nil
    }

    /// The newest read whose rectangle holds `area` (root coordinates), within the horizon.
    func read(covering area: Rect, at now: Moment) -> ScreenReadRecord? {
        reads.reversed().first { read in
            guard now.monotonic - read.time.monotonic <= Self.horizon, let read = read.area else { return false }
            return read.intersection(area) == area
        }
    }

    /// The newest screenshot-sized read by a screenshot program between `seconds` before
    /// `moment` and `moment` (any other program's read — a screen share, a test — ties nothing).
    func screenshotRead(before moment: Moment, within seconds: Double) -> ScreenReadRecord? {
        reads.reversed().first { read in
            read.time.monotonic <= moment.monotonic && moment.monotonic - read.time.monotonic <= seconds
                && CaptureTracker.isScreenshotSized(read.area) && ScreenshotPrograms.contains(read.program)
        }
    }

    /// Whether any program read the screen within `seconds` before `now`.
    func anyRead(within seconds: Double, at now: Moment) -> Bool {
        reads.contains { now.monotonic - $0.time.monotonic <= seconds }
    }
}
