// An image that may be a screenshot: a file or a clipboard image, and what ties it to a capture.
import ShotguardImaging
import ShotguardScreen
import ShotguardX11

/// How a file is named: a screenshot tool's name or folder, or any other image.
enum Naming: String, Sendable {
    /// A keyword such as `screenshot` or `scrot` in its name, or a `Screenshots` folder.
    case strong
    /// Any other image file.
    case weak
    /// A clipboard image: it has no name.
    case none
}

/// Who offered a clipboard image.
struct ClipboardOwner: Equatable, Sendable {
    var window: UInt
    /// Its class and id, for the log and report.
    var description: String
    /// Its process, where X-Resource and /proc tell.
    var process: ProcessIdentity?
    /// The server time at which it took CLIPBOARD: guard's takeover uses it, so that a newer
    /// owner's copy is never replaced (the server refuses an older time).
    var selectionTime: UInt
}

/// A clipboard image and everything else its owner offered.
struct ClipboardOffer: Equatable, Sendable {
    var image: [UInt8]
    /// The image targets offered (of those the agent reads), the one read first.
    var imageTargets: [String]
    /// Every target read (images included), as read before guard took the clipboard over, to be
    /// served back byte for byte when the image turns out not to be a screenshot; empty when
    /// they could not all be read.
    var targets: [ServedTarget]
    var owner: ClipboardOwner
}

/// A real image that came with a signal. Files are kept as paths and read when examined, so a
/// burst of files holds no bytes in memory.
struct Candidate: Sendable {
    enum Source: String, Sendable { case file, clipboard }

    let source: Source
    let path: BytePath?
    let clipboard: ClipboardOffer?
    let naming: Naming
    /// What recognises the same file or image when it is signalled again.
    let key: String
    /// What ties it to a capture, known when it arrived (the event's own is added later).
    var evidence: Evidence
    /// When it arrived.
    let arrived: Moment
    /// Re-reads after it changed under guard (at most one).
    var rereads = 0
    /// Looks while it was not complete yet (bounded: a writer that never finishes).
    var looks = 0
    /// Times it was examined to the end (again when a read behind it was learnt late).
    var judgements = 0
    /// The file held open since the agent first saw it: it is read and rewritten through this,
    /// wherever it went meanwhile (moved, renamed, in another mount namespace).
    var held: HeldFile?
    /// The screen as it was when its pixels were read, when that was before its capture event
    /// (a late save): it is placed on that screen too.
    var readScreens: [Snapshot] = []

    var name: String { path?.description ?? "the clipboard image" }

    /// Whether it counts before the others: a strongly named file, or one with evidence; a
    /// clipboard image (someone may be pasting now).
    var isUrgent: Bool { source == .clipboard || naming == .strong || !evidence.isEmpty }

    static func file(_ path: BytePath, naming: Naming, key: String, evidence: Evidence, at moment: Moment,
                     held: HeldFile? = nil, readScreen: Snapshot? = nil) -> Candidate {
        Candidate(source: .file, path: path, clipboard: nil, naming: naming, key: key, evidence: evidence, arrived: moment,
                  held: held, readScreens: readScreen.map { [$0] } ?? [])
    }

    static func clipboard(_ offer: ClipboardOffer, key: String, evidence: Evidence, at moment: Moment) -> Candidate {
        Candidate(source: .clipboard, path: nil, clipboard: offer, naming: .none, key: key, evidence: evidence, arrived: moment)
    }
}

/// The screen at one moment: its pixels (opaque, for alignment) and its windows.
struct Snapshot: Sendable {
    let root: PixelBuffer
    let context: ScreenContext
    let time: Moment
}
