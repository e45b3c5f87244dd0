// Letting the user click a window or drag a rectangle over part of one, as slop does: the
// pointer grabbed with a crosshair, the rectangle shown by four thin windows while it is dragged.
import CX11
import Glibc
import ShotguardImaging

/// What the user picked with `Display.pickArea`.
public enum AreaPick: Equatable, Sendable {
    /// A click on a window: the child of the root under the pointer (a frame, or a window
    /// nobody reparented; `clientWindow(of:)` finds the client in it).
    case window(Window)
    /// A drag that started on a window: that child of the root, and the rectangle dragged over,
    /// on the root, from the press to the release.
    case rectangle(Window, Rect)
    /// The click or the drag started on the root window: no window.
    case desktop
    /// Escape, or another button than the first.
    case cancelled
}

extension Display {
    /// A press and release less than this many pixels apart is a click.
    static let clickSlop = 3

    /// Waits for the user to click a window or drag a rectangle with the first button, with the
    /// pointer and the keyboard grabbed (Escape cancels); the rectangle is outlined while it is
    /// dragged, by override-redirect windows that are gone when this returns. `ready` is
    /// called once the grabs hold. Throws when another program holds the pointer, or the
    /// display is lost.
    public func pickArea(ready: () -> Void) throws(X11Error) -> AreaPick {
        let cursor = XCreateFontCursor(handle, 34 /* XC_crosshair */)
        defer { XFreeCursor(handle, cursor) }
        let mask = UInt32(ButtonPressMask | ButtonReleaseMask | PointerMotionMask)
        let pointer = XGrabPointer(handle, root, 0, mask, GrabModeAsync, GrabModeAsync, root, cursor, UInt(CurrentTime))
        guard pointer == GrabSuccess else {
            throw X11Error(.unsupported, "cannot grab the pointer to pick an area ("
                + (pointer == AlreadyGrabbed ? "another program holds it" : "grab status \(pointer)") + "); try again")
        }
        let keyboard = XGrabKeyboard(handle, root, 0, GrabModeAsync, GrabModeAsync, UInt(CurrentTime))
        let outline = DragOutline(display: self)
        defer {
            outline.remove()
            XUngrabPointer(handle, UInt(CurrentTime))
            if keyboard == GrabSuccess { XUngrabKeyboard(handle, UInt(CurrentTime)) }
            sync()
        }
        sync()
        ready()
        var start: (x: Int, y: Int, window: Window)?
        var event = XEvent()
        while true {
            while XPending(handle) > 0 {
                XNextEvent(handle, &event)
                switch event.type {
                case ButtonPress where start == nil:
                    let button = event.xbutton
                    guard button.button == UInt32(Button1) else { return .cancelled }
                    start = (Int(button.x_root), Int(button.y_root), button.subwindow)
                case MotionNotify:
                    guard let start else { break }
                    // The newest position only: motion comes faster than it can be drawn.
                    while XCheckTypedEvent(handle, MotionNotify, &event) != 0 {}
                    outline.show(Self.dragged(from: (start.x, start.y), to: (Int(event.xmotion.x_root), Int(event.xmotion.y_root))))
                case ButtonRelease:
                    guard let start else { break }
                    let end = (x: Int(event.xbutton.x_root), y: Int(event.xbutton.y_root))
                    guard start.window != 0 else { return .desktop }
                    if abs(end.x - start.x) <= Self.clickSlop, abs(end.y - start.y) <= Self.clickSlop { return .window(start.window) }
                    return .rectangle(start.window, Self.dragged(from: (start.x, start.y), to: end))
                case KeyPress:
                    if XLookupKeysym(&event.xkey, 0) == 0xFF1B /* XK_Escape */ { return .cancelled }
                default:
                    break
                }
            }
            if isLost { throw X11Error(.connectionLost, "the X display '\(name)' went away while picking an area") }
            waitForServer(until: nil)
        }
    }

    /// The rectangle between two corners, both pixels included.
    static func dragged(from a: (Int, Int), to b: (Int, Int)) -> Rect {
        Rect(x: min(a.0, b.0), y: min(a.1, b.1), width: abs(a.0 - b.0) + 1, height: abs(a.1 - b.1) + 1)
    }
}

/// Four thin windows around the rectangle being dragged: drawn by the server (their background),
/// so they show under a compositor too, where drawing on the root would not.
final class DragOutline {
    static let title = "shotguard picker"
    private let display: Display
    private var windows: [Window] = []

    init(display: Display) {
        self.display = display
    }

    func show(_ rect: Rect) {
        let handle = display.handle
        if windows.isEmpty {
            var attributes = XSetWindowAttributes()
            attributes.override_redirect = 1
            attributes.background_pixel = display.pixel(rgb: 0xFF3030)
            for _ in 0..<4 {
                let window = XCreateWindow(handle, display.root, 0, 0, 1, 1, 0, 0, UInt32(InputOutput), nil,
                                           UInt(CWOverrideRedirect | CWBackPixel), &attributes)
                XStoreName(handle, window, Self.title)
                windows.append(window)
            }
        }
        let sides = [Rect(x: rect.x - 2, y: rect.y - 2, width: rect.width + 4, height: 2),
                     Rect(x: rect.x - 2, y: rect.maxY, width: rect.width + 4, height: 2),
                     Rect(x: rect.x - 2, y: rect.y, width: 2, height: rect.height),
                     Rect(x: rect.maxX, y: rect.y, width: 2, height: rect.height)]
        for (window, side) in zip(windows, sides) {
            XMoveResizeWindow(handle, window, Int32(side.x), Int32(side.y), UInt32(max(1, side.width)), UInt32(max(1, side.height)))
            XMapRaised(handle, window)
        }
        display.flush()
    }

    /// Destroys the outline; a round trip, so that a screenshot taken next never shows it.
    func remove() {
        guard !windows.isEmpty, !display.isLost else { return }
        for window in windows { XDestroyWindow(display.handle, window) }
        windows = []
        display.sync()
    }
}
