// `--report-header-file FILE`: the webhook's headers (tokens), kept off the command line and out of ps.
import Glibc
import ShotguardBase
import ShotguardImaging

/// Header lines, one a line (`Authorization: Bearer …`); blank lines and lines starting with `#`
/// are skipped. The file must be private (no access for group or others): it holds secrets. It
/// is read at every attempt, so a token changed in it applies to the next one.
public enum HeaderFile {
    static let sizeLimit = 64 << 10

    public static func read(_ path: String) throws(HeaderFileError) -> [String] {
        let file: FileDescriptor
        do throws(FileError) {
            file = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        } catch {
            throw HeaderFileError(path: path, line: 0, reason: error.message)
        }
        defer { try? file.close() }  // read-only: nothing a close could still lose
        var status = stat()
        guard fstat(file.rawValue, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw HeaderFileError(path: path, line: 0, reason: "not a regular file")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw HeaderFileError(path: path, line: 0, reason: "others can read it, and it holds secrets (make it private: chmod 600)")
        }
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try file.readAll(limit: sizeLimit)
        } catch {
            throw HeaderFileError(path: path, line: 0, reason: error.message)
        }
        return try parse(bytes, path: path)
    }

    /// The header lines of `bytes`, checked: a name of token characters, a colon, a value
    /// without control characters (a line break in a value would start another header).
    public static func parse(_ bytes: [UInt8], path: String) throws(HeaderFileError) -> [String] {
        var headers: [String] = []
        for (index, raw) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            var line = Array(raw)
            if line.last == 0x0D { line.removeLast() }
            let text = String(decoding: line, as: UTF8.self).trimmingSpaces
            if text.isEmpty || text.hasPrefix("#") { continue }
            guard let colon = text.firstIndex(of: ":") else {
                throw HeaderFileError(path: path, line: index + 1, reason: "expected 'Name: value'")
            }
            let name = text[..<colon]
            let tokenCharacters = Set("!#$%&'*+-.^_`|~".unicodeScalars)
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
                || tokenCharacters.contains($0) }) else {
                throw HeaderFileError(path: path, line: index + 1, reason: "'\(String(name).excerpt(limit: 40))' is not a header name")
            }
            let value = String(text[text.index(after: colon)...]).trimmingSpaces
            guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw HeaderFileError(path: path, line: index + 1, reason: "the value has control characters")
            }
            headers.append("\(name): \(value)")
        }
        return headers
    }
}

/// A header file that cannot be used: its path, the line (0 for the whole file) and why.
public struct HeaderFileError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let line: Int
    public let reason: String

    public var description: String {
        "--report-header-file \(path.escapingControlCharacters())" + (line > 0 ? ":\(line)" : "") + ": \(reason)"
    }
}
