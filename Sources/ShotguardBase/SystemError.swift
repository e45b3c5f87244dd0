// One error path for POSIX calls: retries EINTR, and throws an error naming the call and errno.
import Glibc

/// A failed system call, e.g. "inotify_add_watch /home/u/Pictures: Permission denied".
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public let call: String
    public let code: Int32

    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    public var description: String { "\(call): \(String(cString: strerror(code)))" }
}

/// Runs `body` until it does not fail with EINTR; a negative result throws `SystemError`.
@discardableResult
public func retrying<T: SignedInteger>(_ call: @autoclosure () -> String, _ body: () -> T) throws(SystemError) -> T {
    switch uninterrupted(body) {
    case .success(let result): return result
    case .failure(let failure): throw SystemError(call: call(), code: failure.code)
    }
}

/// errno of a failed call, taken the moment it failed.
public struct Errno: Error, Sendable {
    public let code: Int32
}

/// The one `EINTR` loop: runs `body` again while it fails (a negative result) with `EINTR`;
/// its result, or the errno of the failure that ended it, read before anything else runs.
public func uninterrupted<T: SignedInteger>(_ body: () -> T) -> Result<T, Errno> {
    while true {
        let result = body()
        if result >= 0 { return .success(result) }
        let code = errno
        if code != EINTR { return .failure(Errno(code: code)) }
    }
}
