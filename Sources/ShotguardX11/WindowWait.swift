// Waiting until another program's window is on screen: a new look at each window change on the root.
import CX11
import Glibc
import ShotguardBase
import ShotguardScreen

extension Display {
    /// Waits up to `seconds` until `condition` holds of the screen context, reading it again
    /// whenever a child of the root is created, mapped, unmapped, moved or restacked (no
    /// sleeps). For tests and tools that wait for a window another program opens, such as a
    /// notification. False when time runs out.
    public func waitForWindows(seconds: Double, until condition: (ScreenContext) -> Bool) -> Bool {
        var attributes = XWindowAttributes()
        if XGetWindowAttributes(handle, root, &attributes) != 0 {
            XSelectInput(handle, root, attributes.your_event_mask | SubstructureNotifyMask)
        }
        sync()
        let deadline = monotonicNow() + seconds
        var event = XEvent()
        while !condition(screenContext()) {
            var changed = false
            while !changed {
                while XCheckWindowEvent(handle, root, SubstructureNotifyMask, &event) != 0 { changed = true }
                let remaining = deadline - monotonicNow()
                guard remaining > 0, !isLost else { return false }
                if changed { break }
                waitForServer(until: deadline)
                // Reading the socket happens in XCheckWindowEvent's next call.
                _ = XEventsQueued(handle, QueuedAfterReading)
            }
        }
        return true
    }
}
