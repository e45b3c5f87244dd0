// The clipboard transfer steps and the tool-window checks of DesktopEvents.
import CX11

extension DesktopEvents {
    func ownerChanged(_ notify: XFixesSelectionNotifyEvent, now: Double) -> [DesktopSignal] {
        guard watchesClipboard, notify.selection == clipboard, notify.owner != 0, notify.owner != window else { return [] }
        var signals: [DesktopSignal] = []
        // The new owner took over from the owner whose offer was being read, or whose read was
        // just refused (a clipboard manager saving a tool's image as the tool exits); and the
        // clipboard manager's window takes CLIPBOARD only with a save of the owner before it,
        // even when that read was over (or guard took CLIPBOARD from it meanwhile).
        let saved = notify.owner == managerWindow && lastOwner != 0 ? lastOwner : nil
        let previous = fetch?.owner ?? retry?.refusing?.owner ?? saved
        lastOwner = notify.owner
        if let fetch, !fetch.readingImage {
            // The image is in; only other targets were still coming. It stays a read (not all
            // targets): the new owner may not offer it at all.
            signals += delivered(from: fetch)
        }
        // A new owner replaces any transfer in progress: its data is gone with the old owner.
        // After a failed read it is the one that may bring the image.
        retry?.reread()
        let handedOverBy = previous == notify.owner ? nil : previous
        if let handedOverBy { signals.append(.clipboardHandOff(from: UInt(handedOverBy), to: UInt(notify.owner))) }
        startFetch(owner: notify.owner, timestamp: notify.selection_timestamp, handedOverBy: handedOverBy, now: now)
        return signals
    }

    /// Starts reading `owner`'s offer (TARGETS first), with the time it took CLIPBOARD, into the
    /// next of the data properties.
    func startFetch(owner: Window, timestamp: Time, handedOverBy: Window?, now: Double) {
        let property = dataProperties[readsStarted % dataProperties.count]
        readsStarted &+= 1
        fetch = ClipboardFetch(owner: owner, timestamp: timestamp, property: property, handedOverBy: handedOverBy, now: now)
        XConvertSelection(display.handle, clipboard, targets, targetsProperty, window, timestamp)
        display.flush()
    }

    func selectionArrived(_ event: XSelectionEvent, now: Double) -> [DesktopSignal] {
        guard event.requestor == window, event.selection == clipboard else { return [] }
        // Only the answer to this fetch's request counts: a late answer of the previous owner
        // (a refusal sent while a clipboard manager took over, or its data: GTK answers after
        // losing CLIPBOARD) must not end the new read, nor be taken for its data.
        guard let fetch, event.target == (fetch.step == .targets ? targets : fetch.target),
              event.time == fetch.timestamp || event.time == CurrentTime,
              event.property == 0 || event.property == (fetch.step == .targets ? targetsProperty : fetch.property) else {
            discardLate(event.property)
            return []
        }
        guard event.property != 0 else {
            guard fetch.step != .targets else { return offerEnded() }
            guard !fetch.readingImage else {
                let asked = imageTargets.first { $0.atom == fetch.target }?.name ?? "the image"
                return failed("the clipboard owner refused \(asked)", refusal: true, now: now)
            }
            return ask(fetch.skip(now: now), of: fetch)
        }
        guard let property = display.takeProperty(event.property, of: window) else {
            // Answered, but nothing was written (xfsettingsd answers so for a target it lacks).
            guard !fetch.readingImage else { return failed("the clipboard data could not be read", refusal: true, now: now) }
            return ask(fetch.skip(now: now), of: fetch)
        }
        switch fetch.step {
        case .targets:
            guard let offered = ClipboardAssembly.targets(in: property.bytes, format: property.format) else {
                return offerEnded()
            }
            let images = imageTargets.filter { offered.contains(UInt($0.atom)) }
            guard let best = images.first else { return offerEnded() }
            let others = Array(offered.prefix(4 * ClipboardFetch.maximumTargets)).map { Atom($0) }
            let names = display.atomNames(others)
            let named = zip(others, names).compactMap { atom, name in name.map { (atom: atom, name: $0) } }
            fetch.chose(best, offered: images.map(\.name), others: named, now: now)
            XConvertSelection(display.handle, clipboard, best.atom, fetch.property, window, fetch.timestamp)
            display.flush()
            return []
        case .data where property.type == incr:
            // INCR: the owner sends the data in chunks, each after we delete the last one;
            // takeProperty has deleted the INCR property, which starts the transfer.
            fetch.progressed(now: now, to: .incremental)
            return []
        case .data:
            guard !fetch.readingImage || property.bytes.count <= ClipboardFetch.maximumSize else {
                return failed("the clipboard image is larger than \(ClipboardFetch.maximumSize / 1024 / 1024) MiB", now: now)
            }
            let type = display.atomNames([property.type]).first.flatMap { $0 } ?? "STRING"
            return ask(fetch.finished(property.bytes, type: type, format: property.format, now: now), of: fetch)
        case .incremental:
            return []
        }
    }

    func chunkArrived(_ event: XPropertyEvent, now: Double) -> [DesktopSignal] {
        guard event.state == PropertyNewValue else { return [] }
        guard let fetch, fetch.step == .incremental, event.atom == fetch.property else {
            // A chunk of a transfer no read waits for: deleted, so that its sender goes on to
            // its end instead of waiting to write into a property a later read will use.
            discardLate(event.atom)
            return []
        }
        guard let chunk = display.takeProperty(fetch.property, of: window) else { return [] }
        switch fetch.add(chunk.bytes) {
        case .complete:
            let type = display.atomNames([chunk.type]).first.flatMap { $0 } ?? "STRING"
            return ask(fetch.finished(fetch.incrementalData, type: type, format: chunk.format, now: now), of: fetch)
        case .tooLarge:
            guard !fetch.readingImage else {
                return failed("the clipboard image is larger than \(ClipboardFetch.maximumSize / 1024 / 1024) MiB", now: now)
            }
            return ask(fetch.skip(now: now), of: fetch)
        case .needsMore:
            fetch.progressed(now: now)
            return []
        }
    }

    /// Asks the owner for the next target, or ends the read when there is none.
    private func ask(_ next: (atom: Atom, name: String)?, of fetch: ClipboardFetch) -> [DesktopSignal] {
        guard let next else { return delivered(from: fetch) }
        XConvertSelection(display.handle, clipboard, next.atom, fetch.property, window, fetch.timestamp)
        display.flush()
        return []
    }

    /// A read ended with an image. One this process serves (a clipboard manager that copied
    /// the guard's image and took CLIPBOARD) is no new screenshot.
    func delivered(from fetch: ClipboardFetch) -> [DesktopSignal] {
        if self.fetch === fetch { self.fetch = nil }
        endRetry()
        guard let read = fetch.result(ownerDescription: describe(fetch.owner)), !clipboardServer.isServing(read.image) else {
            return []
        }
        return [.clipboardImage(read)]
    }

    /// The owner offers no image (no TARGETS, or none of the image targets): the read ends with
    /// nothing to say. A failure held meanwhile stays held until its wait is over.
    private func offerEnded() -> [DesktopSignal] {
        fetch = nil
        return []
    }

    /// A read failed: reported at once, or held while a new owner may still bring the image.
    /// After a `refusal` by the owner that still holds CLIPBOARD, that owner is asked again
    /// (see ClipboardRetry): when the owner it took over from goes, and when the wait ends.
    func failed(_ reason: String, refusal: Bool = false, now: Double) -> [DesktopSignal] {
        let ended = fetch
        fetch = nil
        if var held = retry {
            guard !held.failedAgain(reason, now: now) else {
                endRetry()
                return [.clipboardFailed(reason: reason)]
            }
            retry = held
        } else {
            retry = ClipboardRetry(reason: reason, now: now)
        }
        guard refusal, let ended else { return [] }
        retry?.refused(by: ended.owner, timestamp: ended.timestamp, handedOverBy: ended.handedOverBy)
        guard let previous = ended.handedOverBy else { return [] }
        return followDeparture(of: previous, now: now)
    }

    /// An answer or INCR chunk no read waits for, in one of the data properties: deleted.
    func discardLate(_ property: Atom) {
        guard property != 0, dataProperties.contains(property), property != fetch?.property else { return }
        XDeleteProperty(display.handle, window, property)
        display.flush()
    }

    /// A new top-level window, or one whose class changed: checked with the others of this
    /// turn in one batch (`checkNewWindows`), never with a round trip of its own.
    func noteNewWindow(_ id: Window) {
        guard id != window, toolWindows[id] == nil else { return }
        if newWindows.count < Self.maximumNewWindows { newWindows.insert(id) }
    }

    /// Checks up to `newWindowsPerTurn` of the windows noted since the last call, in one batch:
    /// follows their property and structure changes, and signals the screenshot tools among
    /// them. The rest wait for the next turn (`hasNewWindows`), so a storm of windows is worked
    /// through in bounded steps while other events are answered.
    func checkNewWindows() -> [DesktopSignal] {
        guard !newWindows.isEmpty else { return [] }
        let batch = Array(newWindows.prefix(Self.newWindowsPerTurn))
        newWindows.subtract(batch)
        let facts = NewWindowBatch(display).check(batch, selecting: PropertyChangeMask | StructureNotifyMask)
        var signals: [DesktopSignal] = []
        var quiet: [Window] = []
        for fact in facts {
            let names = [fact.instance.lowercased(), fact.className.lowercased()]
            guard watchesTools, let tool = names.first(where: { isTool($0) }) else {
                // Named and not a tool: stop hearing about this window's property changes (unless
                // the windows are followed: the rules follow its title and class).
                if !followsWindows, !fact.className.isEmpty || !fact.instance.isEmpty { quiet.append(fact.window) }
                continue
            }
            toolWindows[fact.window] = tool
            signals.append(.toolWindowOpened(id: UInt(fact.window), toolClass: tool))
            // Already shown (its class was set after mapping): its MapNotify has passed.
            if fact.isViewable { signals.append(.toolWindowMapped(id: UInt(fact.window), toolClass: tool)) }
        }
        if !quiet.isEmpty { NewWindowBatch(display).deselect(quiet) }
        return signals
    }

    /// Whether new windows wait for their check (the loop then turns again at once).
    public var hasNewWindows: Bool { !newWindows.isEmpty }

    /// Whether events sit in Xlib's queue, read there by a round trip after `process` drained it
    /// (the new windows' check, a takeover of the clipboard): poll would not see them on the
    /// socket and the loop would sleep with them unhandled.
    public var hasQueuedEvents: Bool { XQLength(display.handle) > 0 }

    /// The clipboard owner for reports: its WM_CLASS where it has one, else its id.
    private func describe(_ owner: Window) -> String {
        let hint = display.classHint(of: owner)
        return hint.className.isEmpty ? hexID(UInt(owner)) : "\(hint.className) (\(hexID(UInt(owner))))"
    }
}
