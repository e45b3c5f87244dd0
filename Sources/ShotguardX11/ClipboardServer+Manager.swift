// Handing the served image to a clipboard manager (freedesktop ClipboardManager spec), e.g. at exit.
import CX11
import Glibc
import ShotguardBase

extension ClipboardServer {
    /// The window of the running clipboard manager (owner of CLIPBOARD_MANAGER), or nil.
    public var clipboardManager: UInt? {
        let owner = XGetSelectionOwner(display.handle, manager)
        return owner == 0 ? nil : UInt(owner)
    }

    /// Asks the clipboard manager to keep the image this server serves, so that it outlives
    /// the agent: ConvertSelection of CLIPBOARD_MANAGER to SAVE_TARGETS. The manager then
    /// requests the targets like any client; its answer comes as `.handedOff`, or a refusal
    /// after `handOffTimeout` without progress. False when there is no manager or nothing is being served.
    @discardableResult
    public func beginHandOff(now: Double) -> Bool {
        guard state == .serving, let owner = clipboardManager else { return false }
        handOff = (Window(owner), now, now + Self.handOffTimeout)
        XConvertSelection(display.handle, manager, saveTargets, saveProperty, window, ownedSince)
        display.flush()
        return true
    }

    /// `beginHandOff`, then serves the manager's requests until it answers or `handOffTimeout`
    /// passes. Blocks: for the agent's exit, when no other event matters (events that are not
    /// the server's are dropped). True when the manager stored the image.
    public func handOffAndWait() -> Bool {
        guard beginHandOff(now: monotonicNow()) else { return false }
        var event = XEvent()
        while handOff != nil {
            while XPending(display.handle) > 0 {
                XNextEvent(display.handle, &event)
                _ = handle(&event, now: monotonicNow())
            }
            expire(now: monotonicNow())
            guard let deadline = handOff?.deadline, !display.isLost else { break }
            display.waitForServer(until: deadline)
        }
        return events.contains { if case .handedOff(_, true) = $0 { return true } else { return false } }
    }

    /// At exit: answers the requests already sent to this client (with what is served), gives
    /// CLIPBOARD up, then refuses those that reached it before the release took effect, so that
    /// no paster waits for a client that is gone (GTK waits 30 s for an answer: a clipboard
    /// history polling the clipboard, Parcellite, hung that long and put nothing back). Events
    /// that are not the server's are dropped: nothing else runs any more.
    public func finishAtExit() {
        guard !display.isLost else { return }
        answerPending()
        release(reason: "the agent is exiting", now: monotonicNow())
        answerPending()
    }

    /// Handles every event the server has sent so far (a round trip first).
    private func answerPending() {
        display.sync()
        var event = XEvent()
        while XPending(display.handle) > 0 {
            XNextEvent(display.handle, &event)
            _ = handle(&event, now: monotonicNow())
        }
        display.flush()
    }

    /// The hand-off makes progress (a request, an INCR chunk taken): its wait is extended.
    func handOffProgressed(now: Double) {
        guard let current = handOff else { return }
        handOff?.deadline = max(current.deadline, min(current.started + Self.handOffLimit, now + Self.handOffTimeout))
    }

    /// The manager's SelectionNotify: a property (then deleted) means saved, None refused.
    func handOffAnswered(_ event: XSelectionEvent) {
        guard let handOff, event.target == saveTargets else { return }
        self.handOff = nil
        if event.property != 0 { XDeleteProperty(display.handle, window, event.property) }
        events.append(.handedOff(manager: UInt(handOff.manager), saved: event.property != 0))
    }
}
