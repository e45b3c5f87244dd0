// Reads a regions file from disk: POSIX calls, a size cap, and UTF-8 checking, each with a clear error.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

import ShotguardBase

extension RegionsFile {
    /// The largest regions file `load` accepts. Real files are a few hundred bytes; the cap keeps
    /// a mistaken `--regions /dev/zero` or a huge log from being read into memory.
    public static let maximumFileSize = 1 << 20

    /// Reads and parses the regions file at `path`; a system policy file when `system` (it may
    /// say `lock`, and its rules are marked as the system's).
    ///
    /// Errors name the path and the system's reason (`No such file or directory`), a file over
    /// 1 MiB, text that is not UTF-8 (with its line), or the first syntax error.
    public static func load(path: String, system: Bool = false) throws(RegionsError) -> RegionsFile {
        let bytes = try readBytes(path: path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let position = firstInvalidUTF8(bytes)
            throw RegionsError(path: path, line: position.line, column: position.column,
                               message: "the regions file is not valid UTF-8 text (save it as UTF-8)")
        }
        return try parse(text, path: path, system: system)
    }

    private static func readBytes(path: String) throws(RegionsError) -> [UInt8] {
        func failure(_ reason: String) -> RegionsError {
            RegionsError(path: path, message: "cannot read regions file: \(reason)")
        }
        func systemFailure(_ code: Int32 = errno) -> RegionsError { failure(String(cString: strerror(code))) }

        // O_NONBLOCK so that opening a FIFO by mistake does not hang waiting for a writer.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw systemFailure() }
        defer { close(descriptor) }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw systemFailure() }
        let kind = status.st_mode & S_IFMT
        guard kind != S_IFDIR else { throw systemFailure(EISDIR) }
        guard kind == S_IFREG else { throw failure("not a regular file") }
        guard status.st_size <= maximumFileSize else { throw tooLarge(path: path, size: Int(status.st_size)) }
        // The read is capped too, so a file that grew after fstat is still caught.
        do throws(FileError) {
            return try FileIO.read(fd: descriptor, name: path, limit: maximumFileSize)
        } catch {
            // FileIO fails right after the read that set errno.
            throw error.kind == .tooLarge ? tooLarge(path: path, size: maximumFileSize + 1) : systemFailure()
        }
    }

    private static func tooLarge(path: String, size: Int) -> RegionsError {
        RegionsError(path: path,
                     message: "the regions file is too large (\(size) bytes or more; the limit is 1 MiB)")
    }
}

/// The 1-based line and column (in characters, as parse errors count them) of the first byte
/// sequence that is not UTF-8.
private func firstInvalidUTF8(_ bytes: [UInt8]) -> (line: Int, column: Int) {
    var line = 1
    var lineStart = 0
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var offset = 0
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar):
            offset += UTF8.width(scalar)
            if scalar == "\n" {
                line += 1
                lineStart = offset
            }
        case .emptyInput:
            return (line, 1)
        case .error:
            // The line's valid start, counted in characters: the column of the bad byte.
            let before = String(decoding: bytes[lineStart..<offset], as: UTF8.self)
            return (line, before.count + 1)
        }
    }
}
