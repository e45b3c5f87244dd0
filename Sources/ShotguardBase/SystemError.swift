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
    while true {
        let result = body()
        if result >= 0 { return result }
        if errno != EINTR { throw SystemError(call: call(), code: errno) }
    }
}
