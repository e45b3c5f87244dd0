// Waiting for the X server: one poll() on the connection with a deadline, no sleeps; and the waits built on it.
import CX11
import Glibc
import ShotguardBase

extension Display {
    /// Blocks until the connection is readable or `deadline` (monotonic seconds; nil: no
    /// deadline) passes: the one wait on the server of this layer. Call it only once the events
    /// Xlib already read are taken (those would not wake poll()). True when the server spoke.
    /// The agent's loop never calls it with a long deadline: waits of the loop are bounded by
    /// what they wait for (a server's answer to a request of its own) and their callers' limits.
    @discardableResult
    public func waitForServer(until deadline: Double?) -> Bool {
        guard !isLost else { return false }
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let timeout: Int32
        if let deadline {
            let remaining = deadline - monotonicNow()
            guard remaining > 0 else { return false }
            timeout = Int32(min(remaining * 1000, Double(Int32.max)).rounded(.up))
        } else {
            timeout = -1
        }
        guard case .success(let ready) = uninterrupted({ poll(&descriptor, 1, timeout) }) else { return false }
        return ready > 0
    }

    /// Waits up to `seconds` for an event on `window` (among `mask`) that `matches` accepts.
    /// Blocks in poll() on the connection between events, so it wakes when the server speaks.
    /// Events of other windows stay queued for their readers.
    public func waitForEvent(on window: Window, mask: Int, seconds: Double, _ matches: (XEvent) -> Bool) -> Bool {
        let deadline = monotonicNow() + seconds
        var event = XEvent()
        while true {
            while XCheckWindowEvent(handle, window, mask, &event) != 0 {
                if matches(event) { return true }
            }
            guard deadline > monotonicNow(), !isLost else { return false }
            waitForServer(until: deadline)
        }
    }
}


extension Display {
    /// Waits up to `seconds` until `condition` holds, checking it again whenever a property of
    /// one of `windows` changes: for what a window manager does in its own time (the stacking
    /// list on the root, a window's frame extents). False when time runs out.
    public func waitForProperties(of windows: [Window], seconds: Double, until condition: () -> Bool) -> Bool {
        for window in windows {
            var attributes = XWindowAttributes()
            if XGetWindowAttributes(handle, window, &attributes) != 0 {
                XSelectInput(handle, window, attributes.your_event_mask | PropertyChangeMask)
            }
        }
        flush()
        let deadline = monotonicNow() + seconds
        var event = XEvent()
        while !condition() {
            var changed = false
            for window in windows {
                while XCheckTypedWindowEvent(handle, window, PropertyNotify, &event) != 0 { changed = true }
            }
            guard !changed else { continue }
            guard deadline > monotonicNow(), !isLost else { return false }
            waitForServer(until: deadline)
        }
        return true
    }
}
