// Waiting for an X event on one window with a deadline: poll() on the connection, no sleeps.
import CX11
import Glibc
import ShotguardBase

extension Display {
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
            let remaining = deadline - monotonicNow()
            guard remaining > 0, !isLost else { return false }
            var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32((remaining * 1000).rounded(.up)))
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
            let remaining = deadline - monotonicNow()
            guard remaining > 0, !isLost else { return false }
            var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32((remaining * 1000).rounded(.up)))
        }
        return true
    }
}
