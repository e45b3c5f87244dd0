// Errors from decoding, encoding and writing images, worded for the person who sees them.
import ShotguardBase

/// Why an image could not be read or written. `description` is one line naming the source.
public struct ImagingError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        case notPNG, unknownFormat, truncated, corrupt, tooLarge, io, encode
        /// Memory handed to a codec does not hold the rows it is said to hold (fewer bytes
        /// than the rows, rows closer together than a row's pixels): nothing of it was read or
        /// written.
        case bufferSize
    }

    public var kind: Kind
    /// The file, `-` for standard input/output, or another name for the source.
    public var source: String
    public var message: String

    public init(_ kind: Kind, source: String, _ message: String) {
        self.kind = kind
        self.source = source
        self.message = message
    }

    public var description: String { "\(source): \(message)" }

    /// A failed file read or write of the base layer, as an imaging error.
    public init(_ error: FileError) {
        self.init(error.kind == .tooLarge ? .tooLarge : .io, source: error.path, error.message)
    }

    /// Runs a file operation, its error as an imaging error (for `do throws(ImagingError)`).
    public static func file<T>(_ body: () throws(FileError) -> T) throws(ImagingError) -> T {
        do throws(FileError) {
            return try body()
        } catch {
            throw ImagingError(error)
        }
    }
}
