// The mark on screen while a program records or shares the screen: a small window at the top
// of the primary monitor that names the program, above other windows, letting clicks through.
import CX11
import ShotguardImaging
import ShotguardScreen

/// An override-redirect window showing a red dot and `RECORDING: PROGRAM`, centred at the top
/// of the primary monitor (or the screen). Its pixels are its background pixmap, painted by
/// the server; its input shape is empty, so it never takes a click. A window raised over it
/// (a window manager raises the frames it manages) makes it raise itself again, at most four
/// times a second, but never over a shield's covers (the sentinel's, or another shotguard's:
/// what the rules protect stays covered, and the two never take turns on top).
final class RecordingIndicator {
    static let title = "shotguard recording indicator"
    static let scale = 2
    static let height = 24
    static let background: UInt32 = 0x202020
    static let dot: UInt32 = 0xE02424
    static let text: UInt32 = 0xFFFFFF

    private let display: Display
    private(set) var window: Window = 0
    private var pixmap: Pixmap = 0
    private var text: String?
    private var frame = Rect(x: 0, y: 0, width: 0, height: 0)
    private var lastRaise = -1.0

    init(display: Display) {
        self.display = display
    }

    deinit { hide() }

    /// Shows `text` (replacing what is shown), or hides the mark when nil.
    func show(_ text: String?) {
        guard text != self.text else { return }
        guard let text else { return hide() }
        self.text = text
        guard !display.isLost else { return }
        let image = Self.render(text)
        guard let newPixmap = display.pixmap(of: image) else { return }
        let area = Self.place(width: image.width, height: image.height, on: display.monitors(), screen: display.size)
        frame = area
        let handle = display.handle
        if window == 0 {
            var attributes = XSetWindowAttributes()
            attributes.override_redirect = 1
            attributes.background_pixmap = newPixmap
            attributes.event_mask = VisibilityChangeMask
            window = XCreateWindow(handle, display.root, Int32(area.x), Int32(area.y), UInt32(area.width), UInt32(area.height), 0, 0,
                                   UInt32(InputOutput), nil, UInt(CWOverrideRedirect | CWBackPixmap | CWEventMask), &attributes)
            display.name(window, Self.title)
            display.setWindowType(window, "_NET_WM_WINDOW_TYPE_NOTIFICATION")
            let empty = XFixesCreateRegion(handle, nil, 0)
            XFixesSetWindowShapeRegion(handle, window, ShapeInput, 0, 0, empty)
            XFixesDestroyRegion(handle, empty)
            XMapRaised(handle, window)
        } else {
            XMoveResizeWindow(handle, window, Int32(area.x), Int32(area.y), UInt32(area.width), UInt32(area.height))
            XSetWindowBackgroundPixmap(handle, window, newPixmap)
            XClearWindow(handle, window)
            XRaiseWindow(handle, window)
        }
        if pixmap != 0 { XFreePixmap(handle, pixmap) }
        pixmap = newPixmap
        // A round trip: once `show` returns, the server has the mark on screen.
        display.sync()
    }

    private func hide() {
        text = nil
        guard window != 0 else { return }
        if !display.isLost {
            XDestroyWindow(display.handle, window)
            XFreePixmap(display.handle, pixmap)
            // A round trip: once `hide` returns, the server has taken the mark off the screen.
            display.sync()
        }
        window = 0
        pixmap = 0
    }

    /// Handles an event of the mark: covered by another window, it raises itself again.
    func handle(_ event: inout XEvent, now: Double) {
        guard window != 0, event.type == VisibilityNotify, event.xvisibility.window == window,
              event.xvisibility.state != VisibilityUnobscured, now - lastRaise >= 0.25, coveredByOthers() else { return }
        lastRaise = now
        XRaiseWindow(display.handle, window)
        display.flush()
    }

    /// Whether a window above the mark, other than a shield's cover, overlaps it.
    private func coveredByOthers() -> Bool {
        guard let tree = display.children(of: display.root), let index = tree.children.firstIndex(of: window) else { return false }
        for above in tree.children[(index + 1)...] where display.title(of: above) != ShieldOverlays.title {
            guard let geometry = try? display.geometry(of: above), geometry.isViewable else { continue }
            if !geometry.frame.intersection(frame).isEmpty { return true }
        }
        return false
    }

    /// Centred at the top of the primary monitor (else the first, else the screen).
    static func place(width: Int, height: Int, on monitors: [MonitorInfo], screen: (width: Int, height: Int)) -> Rect {
        let area = (monitors.first(where: \.isPrimary) ?? monitors.first)?.frame
            ?? Rect(x: 0, y: 0, width: screen.width, height: screen.height)
        return Rect(x: area.x + max(0, (area.width - width) / 2), y: area.y, width: width, height: height)
    }

    /// The mark's pixels: a red dot and the text, white on dark grey.
    static func render(_ text: String) -> PixelBuffer {
        let size = PixelBuffer.textSize(text, scale: scale)
        let width = size.width + height + 12
        var image = PixelBuffer(width: width, height: height, fill: 0xFF00_0000 | background)
        let centre = (x: height / 2 + 2, y: height / 2), radius = 6
        for y in 0..<height {
            for x in 0..<height + 4 where (x - centre.x) * (x - centre.x) + (y - centre.y) * (y - centre.y) <= radius * radius {
                image[x, y] = 0xFF00_0000 | dot
            }
        }
        image.draw(text, x: height + 4, y: (height - size.height) / 2, scale: scale, colour: Self.text)
        return image
    }
}
