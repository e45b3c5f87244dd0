// Why guard left an image exactly as it was, as a code for the event stream (the log says it in words).

/// Why an image was left exactly as it was, as the event stream says it.
enum LeftBecause: String, Sendable {
    /// With capture sensing, no program read the screen in the half minute before it: not even read.
    case noScreenRead = "no-screen-read"
    /// It is what guard wrote itself.
    case ownOutput = "own-output"
    /// Gone, or not a regular file, or unreadable before it could be examined.
    case gone
    /// Examined, and no screenshot of this screen (or not one guard has to act on).
    case notScreenshot = "not-screenshot"
}

extension LeftBecause {
    /// Whether a read learnt later may make a screenshot of what was left: not of guard's own
    /// output, nor of a file gone.
    var aReadMayChangeIt: Bool { self == .noScreenRead || self == .notScreenshot }
}
