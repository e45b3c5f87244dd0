// An open file descriptor and the calls made on it: one path for open, read, write and close.
import Glibc

/// A descriptor with the name of what it is open on, so that every failure can say which file:
/// each call retries `EINTR` and throws a `FileError` naming the file, the system call and
/// errno's text ("/tmp/shot.png: write: No space left on device"). It does not own the
/// descriptor: `close()` is called where the caller is done with it.
public struct FileDescriptor: Sendable {
    public let rawValue: Int32
    /// The path, or how the descriptor is known ("standard output").
    public let name: String

    public init(_ rawValue: Int32, name: String) {
        self.rawValue = rawValue
        self.name = name
    }

    public static let standardInput = FileDescriptor(STDIN_FILENO, name: "standard input")
    public static let standardOutput = FileDescriptor(STDOUT_FILENO, name: "standard output")
    public static let standardError = FileDescriptor(STDERR_FILENO, name: "standard error")

    /// `open(2)` with `O_CLOEXEC` added to `flags`.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(FileError) -> FileDescriptor {
        let fd = try retryingInterrupts(path, "open") { Glibc.open(path, flags | O_CLOEXEC, mode) }
        return FileDescriptor(fd, name: path)
    }

    /// Writes every byte, however many calls it takes: at the descriptor's offset, or from
    /// `offset` on (`pwrite`, which leaves the descriptor's offset alone). A call that writes
    /// nothing is an error rather than a reason to loop. The one write loop of shotguard.
    public func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: off_t? = nil) throws(FileError) {
        var done = 0
        while done < bytes.count {
            let base = bytes.baseAddress! + done, left = bytes.count - done
            let count = try retryingInterrupts(name, offset == nil ? "write" : "pwrite") {
                offset.map { Glibc.pwrite(rawValue, base, left, $0 + off_t(done)) } ?? Glibc.write(rawValue, base, left)
            }
            guard count > 0 else { throw FileError(.io, path: name, "write: no bytes were written") }
            done += count
        }
    }

    public func writeAll(_ bytes: [UInt8], at offset: off_t? = nil) throws(FileError) {
        // withUnsafeBytes rethrows untyped: the typed error comes out through a Result.
        try bytes.withUnsafeBytes { buffer in Result { () throws(FileError) in try writeAll(buffer, at: offset) } }.get()
    }

    /// Writes `text` as UTF-8.
    public func writeAll(_ text: String) throws(FileError) {
        var text = text
        try text.withUTF8 { buffer in Result { () throws(FileError) in try writeAll(UnsafeRawBufferPointer(buffer)) } }.get()
    }

    /// Reads to the end, refusing more than `limit` bytes.
    public func readAll(limit: Int) throws(FileError) -> [UInt8] {
        var data = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: min(1 << 20, max(limit, 0) + 1))
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(FileError) in
                    try retryingInterrupts(name, "read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
                }
            }.get()
            if count == 0 { return data }
            guard data.count + count <= limit else {
                throw FileError(.tooLarge, path: name, "input is over the limit of \(limit) bytes")
            }
            data.append(contentsOf: chunk[0..<count])
        }
    }

    /// `close(2)`. Not retried on EINTR: on Linux the descriptor is closed whatever it returns,
    /// and a second close could close a descriptor another thread just opened. An error here can
    /// be the first sign that a write failed (NFS reports it at close).
    public func close() throws(FileError) {
        guard Glibc.close(rawValue) != 0 else { return }
        let code = errno
        if code != EINTR { throw FileError(path: name, call: "close", code: code) }
    }
}

/// Calls `body` again while it fails with `EINTR`; any other failure (a negative result)
/// throws a `FileError` naming `path`, `call` and errno, read before anything can change it.
@discardableResult
public func retryingInterrupts<T: SignedInteger>(_ path: String, _ call: String, _ body: () -> T) throws(FileError) -> T {
    switch uninterrupted(body) {
    case .success(let result): return result
    case .failure(let failure): throw FileError(path: path, call: call, code: failure.code)
    }
}
