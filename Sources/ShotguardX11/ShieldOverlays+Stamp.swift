// The covers mapped, and the server time at which they were: a read stamped later saw them.
import CX11

/// Matches the PropertyNotify of one property on one window; `arg` points at two `UInt`s, the
/// window and the property. A plain function: Xlib calls it from C.
private func isStampEvent(_ display: OpaquePointer?, _ event: UnsafeMutablePointer<XEvent>?, _ arg: XPointer?) -> Int32 {
    guard let event, let arg else { return 0 }
    let raw = UnsafeRawPointer(arg)
    let notify = event.pointee.xproperty
    return event.pointee.type == PropertyNotify && notify.window == raw.load(as: UInt.self)
        && notify.atom == raw.load(fromByteOffset: MemoryLayout<UInt>.stride, as: UInt.self) ? 1 : 0
}

extension ShieldOverlays {
    /// Maps and raises every overlay, waits until the server has done so (one round trip), and
    /// returns the server's time after the maps: RECORD stamps each request with the same
    /// clock, so a read stamped at this time or later was executed with the covers up. The
    /// time comes from the PropertyNotify of a zero-length append to a property of the first
    /// overlay, queued before the round trip's reply. Nil when there is no overlay (nothing to
    /// cover) or the server sent no such event.
    public func raiseAndStamp() -> UInt? {
        raise()
        guard let window = firstWindow, !display.isLost else {
            display.sync()
            return nil
        }
        let handle = display.handle
        let property = display.atom("_SHOTGUARD_SHIELD_TIME")
        XSelectInput(handle, window, PropertyChangeMask)
        var nothing: UInt8 = 0
        XChangeProperty(handle, window, property, XA_INTEGER, 32, PropModeAppend, &nothing, 0)
        display.sync()
        var wanted: [UInt] = [UInt(window), UInt(property)]
        var event = XEvent()
        let found = wanted.withUnsafeMutableBytes { bytes in
            XCheckIfEvent(handle, &event, isStampEvent, bytes.baseAddress?.assumingMemoryBound(to: CChar.self))
        }
        return found != 0 ? event.xproperty.time : nil
    }

    /// The first overlay window, if any (`ids` is a set; the order does not matter here).
    private var firstWindow: Window? { ids.first.map { Window($0) } }
}
