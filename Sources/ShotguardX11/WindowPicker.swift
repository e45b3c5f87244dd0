// Letting the user click a window, as xwininfo and xprop do: an active grab of the pointer on
// the root with a crosshair cursor, and of the keyboard, so Escape cancels.
import CX11
import Glibc

/// What the user picked with `Display.pickWindow`.
public enum WindowPick: Equatable, Sendable {
    /// The child of the root under the pointer when the first button was pressed (a window
    /// manager's frame, or a window nobody reparented; `Display.clientWindow(of:)` finds the
    /// client in it).
    case window(Window)
    /// The click landed on the root window: the desktop, no window.
    case desktop
    /// Escape, or another button than the first.
    case cancelled
}

extension Display {
    /// The font cursor `XC_crosshair` (X11/cursorfont.h).
    private static let crosshairCursor: UInt32 = 34
    /// `XK_Escape` (X11/keysymdef.h).
    private static let escapeKeysym: KeySym = 0xFF1B

    /// Waits for the user to click a window with the first button, with the pointer grabbed
    /// (crosshair cursor) and the keyboard grabbed for Escape; both grabs end before it
    /// returns. `ready` is called once the grabs hold, to tell the user what to do. Waits as
    /// long as it takes, as xwininfo does. Throws when the pointer is grabbed by another
    /// program (a screenshot tool's selection, a menu) or the display is lost.
    public func pickWindow(ready: () -> Void) throws(X11Error) -> WindowPick {
        let cursor = XCreateFontCursor(handle, Self.crosshairCursor)
        defer { XFreeCursor(handle, cursor) }
        let pointer = XGrabPointer(handle, root, 0, UInt32(ButtonPressMask | ButtonReleaseMask), GrabModeAsync, GrabModeAsync,
                                   root, cursor, UInt(CurrentTime))
        guard pointer == GrabSuccess else {
            throw X11Error(.unsupported, "cannot grab the pointer to pick a window ("
                + (pointer == AlreadyGrabbed ? "another program holds it" : "grab status \(pointer)") + "); try again, or name the window")
        }
        let keyboard = XGrabKeyboard(handle, root, 0, GrabModeAsync, GrabModeAsync, UInt(CurrentTime))
        defer {
            XUngrabPointer(handle, UInt(CurrentTime))
            if keyboard == GrabSuccess { XUngrabKeyboard(handle, UInt(CurrentTime)) }
            sync()
        }
        sync()
        ready()
        var picked: WindowPick?
        var event = XEvent()
        while true {
            while XPending(handle) > 0 {
                XNextEvent(handle, &event)
                switch event.type {
                case ButtonPress where picked == nil:
                    let button = event.xbutton
                    picked = button.button != UInt32(Button1) ? .cancelled : button.subwindow == 0 ? .desktop : .window(button.subwindow)
                case ButtonRelease where picked != nil:
                    // The release is ours too: the window under the pointer never sees half a click.
                    return picked!
                case KeyPress:
                    if XLookupKeysym(&event.xkey, 0) == Self.escapeKeysym { return .cancelled }
                default:
                    break
                }
            }
            if isLost { throw X11Error(.connectionLost, "the X display '\(name)' went away while picking a window") }
            waitForServer(until: nil)
        }
    }
}
