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
        raise(stamped: true)
        return stampTime()
    }

    /// Queues a zero-length append to a property of the first overlay (with no overlay,
    /// nothing): its PropertyNotify carries the server's time once the requests before it are
    /// done. Sent in the maps' own flush, no other client's request is likely to come between.
    func queueStamp() {
        guard let window = firstWindow, !display.isLost else { return }
        XSelectInput(display.handle, window, PropertyChangeMask)
        var nothing: UInt8 = 0
        XChangeProperty(display.handle, window, stampProperty, XA_INTEGER, 32, PropModeAppend, &nothing, 0)
    }

    /// After `raise(stamped: true)`: one round trip, then the server's time of the stamp, or nil
    /// when there was no overlay or no such event came.
    public func stampTime() -> UInt? {
        display.sync()
        guard let window = firstWindow, !display.isLost else { return nil }
        var wanted: [UInt] = [UInt(window), UInt(stampProperty)]
        var event = XEvent()
        let found = wanted.withUnsafeMutableBytes { bytes in
            XCheckIfEvent(display.handle, &event, isStampEvent, bytes.baseAddress?.assumingMemoryBound(to: CChar.self))
        }
        return found != 0 ? event.xproperty.time : nil
    }

    /// The first overlay window, if any (`ids` is a set; the order does not matter here).
    private var firstWindow: Window? { ids.first.map { Window($0) } }
}
