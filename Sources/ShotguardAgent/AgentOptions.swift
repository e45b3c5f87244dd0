// What `shotguard watch` was asked to do.

public struct AgentOptions: Sendable {
    /// `--regions FILE`; nil for the default path (where a missing file means no rules).
    public var regionsPath: String?
    /// Extra folders (`--dir`), besides the XDG pictures folder, its Screenshots and home.
    public var folders: [String] = []
    public var toolClasses: [String] = []
    /// `--spool DIR`, as given (a relative path is taken from the current folder at start).
    public var spoolFolder: String?
    /// `--keep N`: how many reports the spool keeps (the oldest are removed first).
    public var keepReports = 500
    /// `--keep-for DURATION`: how long reports are kept, in seconds (a day by default); nil keeps
    /// them whatever their age (`--keep-for 0`... is refused by the CLI; `forever` gives nil).
    public var keepFor: Double? = 86_400
    /// `--keep-unredacted`: keep the image of a screenshot that no rule touched (by default only
    /// its report is kept; with `--exec` the image is kept for the command).
    public var keepUnredacted = false
    /// `--no-notify`: no desktop notifications.
    public var notify = true
    /// `--no-tray`: no tray icon (XEmbed or StatusNotifierItem).
    public var tray = true
    /// `--no-indicator`: no mark on screen while a program records the screen.
    public var indicator = true
    public var execCommand: String?
    /// `--report-to`, `--report-ask` and the queue's bounds.
    public var delivery = DeliveryOptions()
    public var printJSON = false
    public var once = false
    public var verbose = false
    public var useSharedMemory = true
    public var compressionLevel = 1
    public var watchFiles = true
    public var watchClipboard = true
    public var watchTools = true
    /// Guard: rewrite screenshot files that rules hit and take over the clipboard (`--no-guard` turns it off).
    public var guarding = true
    /// `--shield`: cover the rules' rectangles the moment a shield key is pressed.
    public var shield = false
    /// Cover what the rules protect while a program records or shares the screen, from its
    /// first read (on by default; `--no-shield` turns it off).
    public var shieldRecordings = true
    /// `--shield-key KEYSYM`: keys besides Print that start a shield (keysym names).
    public var shieldKeys: [String] = []
    /// Read the screen's text while nobody takes a screenshot, so a screenshot's text pass needs
    /// OCR only for what changed since (text rules only; `--no-read-ahead` turns it off).
    public var readAhead = true
    public var version = "0"

    public init() {}
}
