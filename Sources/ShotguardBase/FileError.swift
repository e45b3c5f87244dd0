// Why a file could not be read or written: one line naming the file, for whoever sees it.

/// A failed read or write of a file (or of standard input/output, named `-`).
public struct FileError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        /// The system refused: open, read, write, fsync or rename failed (the errno text says why).
        case io
        /// The file holds more than the reader's limit.
        case tooLarge
    }

    public var kind: Kind
    public var path: String
    public var message: String

    public init(_ kind: Kind, path: String, _ message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
