// Answering SelectionRequest: TARGETS, TIMESTAMP, MULTIPLE, SAVE_TARGETS and the image targets.
import CX11

extension ClipboardServer {
    /// A request from another client: queued while the image is pending, answered otherwise.
    func request(_ event: XSelectionRequestEvent, now: Double) {
        handOffProgressed(now: now)
        var request = event
        // Obsolete clients (ICCCM 2.2) name no property: the answer goes in one named after the target.
        if request.property == 0 { request.property = request.target }
        guard request.selection == clipboard, state != .idle,
              request.time == CurrentTime || request.time >= ownedSince else {
            notify(request, property: 0)
            return
        }
        if state == .pending {
            queued.append(request)
            // After a timeout refused the earlier ones, a new wait starts with this request.
            if pendingDeadline == nil { pendingDeadline = now + Self.pendingTimeout }
            return
        }
        answer(request, now: now)
        display.flush()
    }

    /// Answers one request with the image that is now provided.
    func answer(_ request: XSelectionRequestEvent, now: Double) {
        if request.target == multiple {
            answerMultiple(request, now: now)
            return
        }
        switch reply(to: request.target, requestor: request.requestor, property: request.property, now: now) {
        case .some(let property):
            notify(request, property: property)
        case .none:
            notify(request, property: 0)
            events.append(.refused(target: name(of: request.target), requestor: UInt(request.requestor),
                                   reason: "the target is not offered"))
        }
    }

    /// Writes the answer for `target` into `property` of `requestor`; the property to name in
    /// the SelectionNotify, or nil to refuse. Data larger than one request starts an INCR
    /// transfer.
    private func reply(to target: Atom, requestor: Window, property: Atom, now: Double) -> Atom? {
        if target == targets {
            let list = [targets, timestamp, multiple, saveTargets] + offers.map(\.target)
            return write(list.map { UInt($0) }, type: XA_ATOM, to: requestor, property: property)
        }
        if target == timestamp {
            return write([UInt(ownedSince)], type: XA_INTEGER, to: requestor, property: property)
        }
        if target == saveTargets {
            // Only a clipboard manager asks this of an owner; the empty NULL reply is "done".
            return write([], type: display.atom("NULL"), to: requestor, property: property)
        }
        guard let offer = offers.first(where: { $0.target == target }) else { return nil }
        if offer.bytes.count > chunkSize {
            // INCR carries bytes (format 8); larger data of another format is refused.
            guard offer.format == 8 else { return nil }
            return startIncremental(offer.bytes, target: offer.type, requestor: requestor, property: property, now: now)
        }
        guard writeData(offer, to: requestor, property: property) else { return nil }
        events.append(.served(target: name(of: target), requestor: UInt(requestor), bytes: offer.bytes.count, incremental: false))
        return property
    }

    /// MULTIPLE (ICCCM 2.6.2): the requestor's property lists (target, property) pairs; each is
    /// answered, a refused pair gets None as its property, and the list is written back. Data
    /// too large for one request goes by INCR, pair by pair (ICCCM 2.7.2): a clipboard manager
    /// saves every target with one MULTIPLE, and a screenshot is larger than one request.
    private func answerMultiple(_ request: XSelectionRequestEvent, now: Double) {
        guard let chunk = display.propertyChunk(request.property, of: request.requestor, length: 1024),
              chunk.format == 32, chunk.items.count % 2 == 0 else {
            notify(request, property: 0)
            return
        }
        var pairs = chunk.items
        for index in stride(from: 0, to: pairs.count, by: 2) {
            let target = Atom(pairs[index]), property = Atom(pairs[index + 1])
            let answered = target == multiple || property == 0 ? nil
                : reply(to: target, requestor: request.requestor, property: property, now: now)
            if answered == nil { pairs[index + 1] = 0 }
        }
        let written = write(pairs.map { UInt($0) }, type: chunk.type, to: request.requestor, property: request.property)
        notify(request, property: written ?? 0)
    }

    /// Writes an offer's data with its type and format (format 32 goes as C longs, as Xlib
    /// wants them); false when the requestor vanished.
    private func writeData(_ offer: Offer, to requestor: Window, property: Atom) -> Bool {
        switch offer.format {
        case 32:
            let values = PropertyDecoding.cardinals(fromBytes: offer.bytes).map { UInt($0) }
            return write(values, type: offer.type, to: requestor, property: property) != nil
        case 16:
            let (_, error) = display.trap {
                offer.bytes.withUnsafeBufferPointer { bytes in
                    XChangeProperty(display.handle, requestor, property, offer.type, 16, PropModeReplace,
                                    bytes.baseAddress, Int32(bytes.count / 2))
                }
            }
            return error == nil
        default:
            let (_, error) = display.trap {
                offer.bytes.withUnsafeBufferPointer { bytes in
                    XChangeProperty(display.handle, requestor, property, offer.type, 8, PropModeReplace,
                                    bytes.baseAddress, Int32(bytes.count))
                }
            }
            return error == nil
        }
    }

    /// Writes a format-32 list (C longs, as Xlib wants them); nil when the requestor vanished.
    func write(_ items: [UInt], type: Atom, to requestor: Window, property: Atom) -> Atom? {
        var values = items.map { Int($0) }
        let (_, error) = display.trap {
            values.withUnsafeMutableBytes { bytes in
                XChangeProperty(display.handle, requestor, property, type, 32, PropModeReplace,
                                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(items.count))
            }
        }
        return error == nil ? property : nil
    }

    /// Tells the requestor its answer is ready in `property`, or refused (0). A requestor that
    /// vanished meanwhile is no error of ours.
    func notify(_ request: XSelectionRequestEvent, property: Atom) {
        var event = XEvent()
        event.xselection.type = SelectionNotify
        event.xselection.display = display.handle
        event.xselection.requestor = request.requestor
        event.xselection.selection = request.selection
        event.xselection.target = request.target
        event.xselection.property = property
        event.xselection.time = request.time
        _ = display.trap { XSendEvent(display.handle, request.requestor, 0, NoEventMask, &event) }
    }
}
