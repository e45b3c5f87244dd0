// Why a file could not be read or written: one line naming the file, for whoever sees it, and the errno behind it as a value.
import Glibc

/// A failed read or write of a file (or of standard input/output, named `-`).
public struct FileError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        /// The system refused: open, read, write, fsync or rename failed (`code` says why).
        case io
        /// The file holds more than the reader's limit.
        case tooLarge
    }

    public var kind: Kind
    public var path: String
    public var message: String
    /// The system call that failed and its errno, when one did: what a caller decides on
    /// (`ENOSPC`, `EXDEV`, `ENOENT`), never the message's text.
    public var call: String?
    public var code: Int32?

    public init(_ kind: Kind, path: String, _ message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// `call` failed on `path` with errno `code`: "/tmp/shot.png: write: No space left on device".
    public init(path: String, call: String, code: Int32) {
        self.init(.io, path: path, "\(call): \(errnoText(code))")
        self.call = call
        self.code = code
    }

    public var description: String { "\(path): \(message)" }
}
