// The clipboard transfer steps and the tool-window checks of DesktopEvents.
import CX11

extension DesktopEvents {
    func ownerChanged(_ notify: XFixesSelectionNotifyEvent, now: Double) -> [DesktopSignal] {
        guard watchesClipboard, notify.selection == clipboard, notify.owner != 0, notify.owner != window else { return [] }
        // A new owner replaces any transfer in progress: its data is gone with the old owner.
        // After a failed read it is the one that may bring the image (a clipboard manager).
        retry?.reread()
        fetch = ClipboardFetch(owner: notify.owner, timestamp: notify.selection_timestamp, now: now)
        XConvertSelection(display.handle, clipboard, targets, targetsProperty, window, notify.selection_timestamp)
        display.flush()
        return []
    }

    func selectionArrived(_ event: XSelectionEvent, now: Double) -> [DesktopSignal] {
        guard let fetch, event.requestor == window, event.selection == clipboard else { return [] }
        // Only the answer to this fetch's request counts: a late answer of the previous owner
        // (a refusal sent while a clipboard manager took over) must not end the new read.
        guard event.target == (fetch.step == .targets ? targets : fetch.target),
              event.time == fetch.timestamp || event.time == CurrentTime else { return [] }
        guard event.property != 0 else {
            guard fetch.step != .targets else {
                self.fetch = nil
                return []
            }
            let asked = imageTargets.first { $0.atom == fetch.target }?.name ?? "the image"
            return failed("the clipboard owner refused \(asked)", now: now)
        }
        guard let property = display.takeProperty(event.property, of: window) else {
            return failed("the clipboard data could not be read", now: now)
        }
        switch fetch.step {
        case .targets:
            guard let offered = ClipboardAssembly.targets(in: property.bytes, format: property.format) else {
                self.fetch = nil
                return []
            }
            let images = imageTargets.filter { offered.contains(UInt($0.atom)) }
            guard let best = images.first else {
                self.fetch = nil
                return []
            }
            fetch.chose(best.atom, offered: images.map(\.name), now: now)
            XConvertSelection(display.handle, clipboard, best.atom, dataProperty, window, fetch.timestamp)
            display.flush()
            return []
        case .data where property.type == incr:
            // INCR: the owner sends the image in chunks, each after we delete the last one;
            // takeProperty has deleted the INCR property, which starts the transfer.
            fetch.progressed(now: now, to: .incremental)
            return []
        case .data:
            guard property.bytes.count <= ClipboardFetch.maximumSize else {
                return failed("the clipboard image is larger than \(ClipboardFetch.maximumSize / 1024 / 1024) MiB", now: now)
            }
            return delivered(property.bytes, from: fetch, incremental: false)
        case .incremental:
            return []
        }
    }

    func chunkArrived(_ event: XPropertyEvent, now: Double) -> [DesktopSignal] {
        guard let fetch, fetch.step == .incremental, event.atom == dataProperty, event.state == PropertyNewValue else { return [] }
        guard let chunk = display.takeProperty(dataProperty, of: window) else { return [] }
        switch fetch.add(chunk.bytes) {
        case .complete:
            return delivered(fetch.data, from: fetch, incremental: true)
        case .tooLarge:
            return failed("the clipboard image is larger than \(ClipboardFetch.maximumSize / 1024 / 1024) MiB", now: now)
        case .needsMore:
            fetch.progressed(now: now)
            return []
        }
    }

    /// A read ended with an image. One this process serves (a clipboard manager that copied
    /// the guard's image and took CLIPBOARD) is no new screenshot.
    private func delivered(_ bytes: [UInt8], from fetch: ClipboardFetch, incremental: Bool) -> [DesktopSignal] {
        self.fetch = nil
        retry = nil
        guard !clipboardServer.isServing(bytes) else { return [] }
        return [.clipboardImage(bytes: bytes, offered: fetch.offered, owner: describe(fetch.owner), incremental: incremental)]
    }

    /// A read failed: reported at once, or held while a new owner may still bring the image.
    func failed(_ reason: String, now: Double) -> [DesktopSignal] {
        fetch = nil
        guard var held = retry else {
            retry = ClipboardRetry(reason: reason, now: now)
            return []
        }
        guard held.failedAgain(reason, now: now) else {
            retry = held
            return []
        }
        retry = nil
        return [.clipboardFailed(reason: reason)]
    }

    /// Starts following a new top-level window: its class may be set only after creation.
    func track(_ id: Window) -> [DesktopSignal] {
        guard id != window else { return [] }
        let (_, error) = display.trap { XSelectInput(display.handle, id, PropertyChangeMask | StructureNotifyMask) }
        guard error == nil, watchesTools else { return [] }
        return check(id)
    }

    func check(_ id: Window) -> [DesktopSignal] {
        guard toolWindows[id] == nil else { return [] }
        let hint = display.classHint(of: id)
        let names = [hint.instance.lowercased(), hint.className.lowercased()]
        guard let tool = names.first(where: { isTool($0) }) else {
            // Named and not a tool: stop hearing about this window's property changes (unless
            // the shield follows its title and class).
            if shield == nil, !hint.className.isEmpty || !hint.instance.isEmpty {
                _ = display.trap { XSelectInput(display.handle, id, NoEventMask) }
            }
            return []
        }
        toolWindows[id] = tool
        var signals: [DesktopSignal] = [.toolWindowOpened(id: UInt(id), toolClass: tool)]
        // Already shown (its class was set after mapping): its MapNotify has passed.
        if (try? display.geometry(of: id))?.isViewable == true {
            signals.append(.toolWindowMapped(id: UInt(id), toolClass: tool))
        }
        return signals
    }

    /// The clipboard owner for reports: its WM_CLASS where it has one, else its id.
    private func describe(_ owner: Window) -> String {
        let hint = display.classHint(of: owner)
        return hint.className.isEmpty ? hexID(UInt(owner)) : "\(hint.className) (\(hexID(UInt(owner))))"
    }
}
