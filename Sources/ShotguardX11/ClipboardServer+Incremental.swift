// Sending large data by INCR (ICCCM 2.7.2): one chunk each time the requestor deletes the last.
import CX11

/// One INCR transfer to one requestor.
final class IncrementalTransfer {
    let requestor: Window
    let property: Atom
    let target: Atom
    let bytes: [UInt8]
    /// The requestor's event mask from this connection before the transfer, restored after it.
    let previousMask: Int
    var sent = 0
    var deadline: Double

    init(requestor: Window, property: Atom, target: Atom, bytes: [UInt8], previousMask: Int, deadline: Double) {
        self.requestor = requestor
        self.property = property
        self.target = target
        self.bytes = bytes
        self.previousMask = previousMask
        self.deadline = deadline
    }
}

extension ClipboardServer {
    /// Starts an INCR transfer: the INCR property (with the size, a lower bound) goes first;
    /// the requestor deletes it to ask for the first chunk. A requestor has one transfer at a
    /// time: a new request replaces the one it abandoned.
    func startIncremental(_ bytes: [UInt8], target: Atom, requestor: Window, property: Atom, now: Double) -> Atom? {
        if let old = transfers[requestor] { finish(old) }
        // PropertyChangeMask on the requestor, added to what this connection already selects
        // there (the window may be one DesktopEvents follows).
        var attributes = XWindowAttributes()
        let (status, error) = display.trap { XGetWindowAttributes(display.handle, requestor, &attributes) }
        guard status != 0, error == nil else { return nil }
        let previous = attributes.your_event_mask
        _ = display.trap { XSelectInput(display.handle, requestor, previous | PropertyChangeMask) }
        guard write([UInt(bytes.count)], type: incr, to: requestor, property: property) != nil else {
            _ = display.trap { XSelectInput(display.handle, requestor, previous) }
            return nil
        }
        transfers[requestor] = IncrementalTransfer(requestor: requestor, property: property, target: target, bytes: bytes,
                                                   previousMask: previous, deadline: now + Self.transferTimeout)
        return property
    }

    /// A property of a requestor changed: its deletion of our last chunk asks for the next.
    func propertyChanged(_ event: XPropertyEvent, now: Double) {
        guard let transfer = transfers[event.window], event.atom == transfer.property, event.state == PropertyDelete else { return }
        let end = min(transfer.bytes.count, transfer.sent + chunkSize)
        let (_, error) = display.trap {
            transfer.bytes[transfer.sent..<end].withUnsafeBufferPointer { chunk in
                XChangeProperty(display.handle, transfer.requestor, transfer.property, transfer.target, 8, PropModeReplace,
                                chunk.baseAddress, Int32(chunk.count))
            }
        }
        guard error == nil else {
            finish(transfer)
            events.append(.transferAbandoned(requestor: UInt(transfer.requestor)))
            return
        }
        if end == transfer.sent {
            // That was the closing zero-length chunk: whether the requestor deletes it is its affair.
            finish(transfer)
            events.append(.served(target: name(of: transfer.target), requestor: UInt(transfer.requestor),
                                  bytes: transfer.bytes.count, incremental: true))
            return
        }
        transfer.sent = end
        transfer.deadline = now + Self.transferTimeout
    }

    /// Ends a transfer and gives the requestor back the event mask it had from us.
    func finish(_ transfer: IncrementalTransfer) {
        transfers[transfer.requestor] = nil
        _ = display.trap { XSelectInput(display.handle, transfer.requestor, transfer.previousMask) }
    }
}
