// Catches X protocol errors so that a vanished window is a thrown error, never a dead process.
import CX11
import Synchronization

/// The one process-wide record of X errors, kept per connection: Xlib's handlers are plain C
/// functions, so what they see must live in a global; the sentinel's thread has connections of
/// its own, so each connection's errors are its own and the record is locked. Private to this
/// file; read only through `ErrorTrap`.
private struct ErrorRecord: ~Copyable {
    var errors: [UInt: XProtocolError] = [:]
    var lost: Set<UInt> = []
}

private let record = Mutex(ErrorRecord())

private func key(_ display: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display))) }

private func recordError(_ display: OpaquePointer?, _ event: UnsafeMutablePointer<XErrorEvent>?) -> Int32 {
    guard let display, let event else { return 0 }
    let error = XProtocolError(code: event.pointee.error_code, request: event.pointee.request_code,
                               resource: UInt(event.pointee.resourceid))
    record.withLock { if $0.errors[key(display)] == nil { $0.errors[key(display)] = error } }
    return 0
}

private func recordIOError(_ display: OpaquePointer?) -> Int32 {
    if let display { _ = record.withLock { $0.lost.insert(key(display)) } }
    return 0
}

private func recordIOErrorExit(_ display: OpaquePointer?, _ data: UnsafeMutableRawPointer?) {
    if let display { _ = record.withLock { $0.lost.insert(key(display)) } }
}

/// Scoped capture of X protocol errors: install once, then `run` a request and `XSync`.
enum ErrorTrap {
    /// Installs the handlers. Without the IO exit handler libX11 calls `exit` when the server
    /// goes away; with it, the connection is only marked lost and the caller ends cleanly.
    static func install(on display: OpaquePointer) {
        XSetErrorHandler(recordError)
        XSetIOErrorHandler(recordIOError)
        XSetIOErrorExitHandler(display, recordIOErrorExit, nil)
    }

    /// Whether the server of `display` went away.
    static func isConnectionLost(_ display: OpaquePointer) -> Bool { record.withLock { $0.lost.contains(key(display)) } }

    /// Forgets a closed display, whose address malloc may hand out again.
    static func forget(_ display: OpaquePointer) {
        record.withLock {
            $0.lost.remove(key(display))
            $0.errors[key(display)] = nil
        }
    }

    /// Runs `body`, then `XSync`s and returns the first X error it caused on `display`, if any.
    static func run<T>(_ display: OpaquePointer, _ body: () -> T) -> (T, XProtocolError?) {
        XSync(display, 0)
        record.withLock { $0.errors[key(display)] = nil }
        let result = body()
        XSync(display, 0)
        let error = record.withLock { $0.errors.removeValue(forKey: key(display)) }
        return (result, error)
    }

    /// The name of an X error code, for messages.
    public static func name(of code: UInt8) -> String {
        switch Int32(code) {
        case BadWindow: return "BadWindow"
        case BadMatch: return "BadMatch"
        case BadAccess: return "BadAccess"
        case BadDrawable: return "BadDrawable"
        case BadValue: return "BadValue"
        case BadAlloc: return "BadAlloc"
        case BadAtom: return "BadAtom"
        default: return "X error \(code)"
        }
    }
}

/// One X protocol error: the server's code, the request that caused it and the resource it
/// named. `cause` says in words what most likely happened; every X error shotguard reports
/// goes through it.
public struct XProtocolError: Error, Equatable, Sendable {
    public var code: UInt8
    /// The major opcode of the failed request (`X_GetImage` is 73); extensions have their own.
    public var request: UInt8
    public var resource: UInt

    /// The error's name, e.g. "BadMatch".
    public var name: String { ErrorTrap.name(of: code) }

    public init(code: UInt8, request: UInt8, resource: UInt) {
        self.code = code
        self.request = request
        self.resource = resource
    }

    /// Core request opcodes that errors are explained for (X11/Xproto.h).
    enum Request: UInt8 {
        case getWindowAttributes = 3, getGeometry = 14, queryTree = 15, getProperty = 20,
             translateCoordinates = 40, getImage = 73
    }

    /// The error's likely cause, e.g. "window 0x1a00007 does not exist (it may have closed)".
    public var cause: String {
        let name = ErrorTrap.name(of: code)
        switch (Int32(code), Request(rawValue: request)) {
        case (BadMatch, .getImage?):
            return "the rectangle is off screen or the window is not viewable (\(name))"
        case (BadWindow, _), (BadDrawable, _):
            return "window \(hexID(resource)) does not exist (it may have closed) (\(name))"
        case (BadAccess, _):
            return "the X server refused access (\(name)); over a remote connection shared memory is not allowed"
        case (BadAlloc, _):
            return "the X server ran out of memory (\(name))"
        case (BadValue, _):
            return "the X server refused a value of request \(request) (\(name), value \(resource))"
        case (BadAtom, _):
            return "the X server does not know atom \(resource) (\(name))"
        default:
            return "the X server refused request \(request) (\(name))"
        }
    }

    /// The kind of failure it is for the X11 layer's callers.
    public var kind: X11Error.Kind {
        Int32(code) == BadWindow || Int32(code) == BadDrawable ? .windowGone : .capture
    }
}

extension X11Error {
    /// The error for `failure`, prefixed with what was being done ("cannot capture the screen").
    public init(_ failure: XProtocolError, doing: String? = nil) {
        self.init(failure.kind, (doing.map { "\($0): " } ?? "") + failure.cause)
    }
}
