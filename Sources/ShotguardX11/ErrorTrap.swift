// Catches X protocol errors so that a vanished window is a thrown error, never a dead process.
import CX11

/// The one process-wide record of X errors: Xlib's handlers are plain C functions, so what
/// they see must live in a global. Private to this file; read only through `ErrorTrap`.
private nonisolated(unsafe) var lastError: (code: UInt8, request: UInt8, resource: UInt)?
private nonisolated(unsafe) var lostDisplays: Set<OpaquePointer> = []

private func recordError(_ display: OpaquePointer?, _ event: UnsafeMutablePointer<XErrorEvent>?) -> Int32 {
    if let event, lastError == nil {
        lastError = (event.pointee.error_code, event.pointee.request_code, UInt(event.pointee.resourceid))
    }
    return 0
}

private func recordIOError(_ display: OpaquePointer?) -> Int32 {
    if let display { lostDisplays.insert(display) }
    return 0
}

private func recordIOErrorExit(_ display: OpaquePointer?, _ data: UnsafeMutableRawPointer?) {
    if let display { lostDisplays.insert(display) }
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
    static func isConnectionLost(_ display: OpaquePointer) -> Bool { lostDisplays.contains(display) }

    /// Forgets a closed display, whose address malloc may hand out again.
    static func forget(_ display: OpaquePointer) { lostDisplays.remove(display) }

    /// Runs `body`, then `XSync`s and returns the first X error it caused, if any.
    static func run<T>(_ display: OpaquePointer, _ body: () -> T) -> (T, (code: UInt8, request: UInt8, resource: UInt)?) {
        XSync(display, 0)
        lastError = nil
        let result = body()
        XSync(display, 0)
        let error = lastError
        lastError = nil
        return (result, error)
    }

    /// The name of an X error code, for messages.
    static func name(of code: UInt8) -> String {
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
