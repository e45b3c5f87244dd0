// Sending large data by INCR (ICCCM 2.7.2): one chunk each time the requestor deletes the last.
import CX11

/// One INCR transfer: to one requestor, into one of its properties. A MULTIPLE request may start
/// several at once (xfsettingsd saves every target with one MULTIPLE).
final class IncrementalTransfer {
    /// Where it goes: the requestor's window and property.
    struct Key: Hashable {
        let requestor: Window
        let property: Atom
    }

    let key: Key
    let target: Atom
    let bytes: [UInt8]
    var sent = 0
    var deadline: Double

    init(key: Key, target: Atom, bytes: [UInt8], deadline: Double) {
        self.key = key
        self.target = target
        self.bytes = bytes
        self.deadline = deadline
    }
}

extension ClipboardServer {
    /// Starts an INCR transfer: the INCR property (with the size, a lower bound) goes first;
    /// the requestor deletes it to ask for the first chunk. A new request into a property a
    /// transfer still uses replaces the transfer the requestor abandoned; at most
    /// `maximumTransfers` run at once.
    func startIncremental(_ bytes: [UInt8], target: Atom, requestor: Window, property: Atom, now: Double) -> Atom? {
        let key = IncrementalTransfer.Key(requestor: requestor, property: property)
        if let old = transfers[key] { finish(old) }
        guard transfers.count < Self.maximumTransfers else { return nil }
        if requestorMasks[requestor] == nil {
            // PropertyChangeMask on the requestor, added to what this connection already selects
            // there (the window may be one DesktopEvents follows); given back after its last transfer.
            var attributes = XWindowAttributes()
            let (status, error) = display.trap { XGetWindowAttributes(display.handle, requestor, &attributes) }
            guard status != 0, error == nil else { return nil }
            _ = display.trap { XSelectInput(display.handle, requestor, attributes.your_event_mask | PropertyChangeMask) }
            requestorMasks[requestor] = attributes.your_event_mask
        }
        let transfer = IncrementalTransfer(key: key, target: target, bytes: bytes, deadline: now + Self.transferTimeout)
        guard write([UInt(bytes.count)], type: incr, to: requestor, property: property) != nil else {
            transfers[key] = transfer
            finish(transfer)
            return nil
        }
        transfers[key] = transfer
        return property
    }

    /// A property of a requestor changed: its deletion of our last chunk asks for the next.
    func propertyChanged(_ event: XPropertyEvent, now: Double) {
        let key = IncrementalTransfer.Key(requestor: event.window, property: event.atom)
        guard let transfer = transfers[key], event.state == PropertyDelete else { return }
        handOffProgressed(now: now)
        let end = min(transfer.bytes.count, transfer.sent + chunkSize)
        let (_, error) = display.trap {
            transfer.bytes[transfer.sent..<end].withUnsafeBufferPointer { chunk in
                XChangeProperty(display.handle, key.requestor, key.property, transfer.target, 8, PropModeReplace,
                                chunk.baseAddress, Int32(chunk.count))
            }
        }
        guard error == nil else {
            finish(transfer)
            events.append(.transferAbandoned(requestor: UInt(key.requestor)))
            return
        }
        if end == transfer.sent {
            // That was the closing zero-length chunk: whether the requestor deletes it is its affair.
            finish(transfer)
            events.append(.served(target: name(of: transfer.target), requestor: UInt(key.requestor),
                                  bytes: transfer.bytes.count, incremental: true))
            return
        }
        transfer.sent = end
        transfer.deadline = now + Self.transferTimeout
    }

    /// Ends a transfer; after the requestor's last one, gives it back the event mask it had from us.
    func finish(_ transfer: IncrementalTransfer) {
        transfers[transfer.key] = nil
        let requestor = transfer.key.requestor
        guard !transfers.keys.contains(where: { $0.requestor == requestor }), let mask = requestorMasks.removeValue(forKey: requestor) else {
            return
        }
        _ = display.trap { XSelectInput(display.handle, requestor, mask) }
    }
}
