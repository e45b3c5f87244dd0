// A real X server timestamp, from the PropertyNotify of a zero-length property append.
import CX11
import Glibc
import ShotguardBase

/// Matches the PropertyNotify of one property on one window; `arg` points at two `UInt`s, the
/// window and the property. A plain function: Xlib calls it from C.
private func isPropertyEvent(_ display: OpaquePointer?, _ event: UnsafeMutablePointer<XEvent>?, _ arg: XPointer?) -> Int32 {
    guard let event, let arg else { return 0 }
    let raw = UnsafeRawPointer(arg)
    let window = raw.load(as: UInt.self)
    let property = raw.load(fromByteOffset: MemoryLayout<UInt>.stride, as: UInt.self)
    let notify = event.pointee.xproperty
    return event.pointee.type == PropertyNotify && notify.window == window && notify.atom == property ? 1 : 0
}

extension ClipboardServer {
    /// How long guard waits for the server's time before it gives up taking the clipboard.
    static let serverTimeLimit = 1.0

    /// The server's time now. Selections must be owned with a real timestamp: with
    /// CurrentTime, a requestor cannot tell a stale ownership from ours (ICCCM 2.1). Appending
    /// nothing to a property of our own window makes the server send a PropertyNotify stamped
    /// with its time; only that event is taken from the queue, the others stay for their readers.
    func serverTime() throws(X11Error) -> Time {
        var nothing: UInt8 = 0
        XChangeProperty(display.handle, window, timestampProperty, XA_INTEGER, 32, PropModeAppend, &nothing, 0)
        XFlush(display.handle)
        var wanted: [UInt] = [UInt(window), UInt(timestampProperty)]
        var event = XEvent()
        // The server answers at once; the bound only guards against a server that stopped, and
        // keeps the agent's loop (which asks this when guard takes the clipboard) from waiting
        // long on it.
        let deadline = monotonicNow() + Self.serverTimeLimit
        while true {
            let found = wanted.withUnsafeMutableBytes { bytes in
                XCheckIfEvent(display.handle, &event, isPropertyEvent, bytes.baseAddress?.assumingMemoryBound(to: CChar.self))
            }
            if found != 0 { return event.xproperty.time }
            guard deadline > monotonicNow(), !display.isLost else {
                throw X11Error(.clipboard, "the X server '\(display.name)' did not report its time within \(Self.serverTimeLimit) s (expected a PropertyNotify on window \(hexID(UInt(window))))")
            }
            display.waitForServer(until: deadline)
        }
    }
}
