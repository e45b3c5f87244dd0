// Top-level windows that shotguard paints itself: the demo's sample windows and the tests'.
import CX11
import Glibc
import ShotguardX11
import ShotguardImaging

/// A top-level window whose content is a fixed image. The image is the window's background
/// pixmap, so the server repaints it on every expose without help from this process.
public final class PaintedWindow {
    public let id: Window
    private let display: Display
    private let pixmap: Pixmap

    /// Creates, names and maps the window at `frame` (a position request the window manager is
    /// asked to honour), and waits until it is viewable and exposed, bounded to about 5 s.
    /// `argb` makes it a depth-32 window with an alpha channel, as compositing toolkits create;
    /// `popup` an override-redirect window that no window manager handles (a menu, a tooltip).
    public init(display: Display, frame: Rect, content: PixelBuffer, instance: String, className: String,
                title: String, argb: Bool = false, popup: Bool = false) throws(X11Error) {
        self.display = display
        let handle = display.handle
        var depth = display.depth
        var visual = display.visual
        var attributes = XSetWindowAttributes()
        var mask = CWBackPixmap | CWEventMask
        if popup {
            attributes.override_redirect = 1
            mask |= CWOverrideRedirect
        }
        if argb {
            var info = XVisualInfo()
            guard XMatchVisualInfo(handle, XDefaultScreen(handle), 32, TrueColor, &info) != 0 else {
                throw X11Error(.unsupported, "the X server offers no 32-bit TrueColor visual")
            }
            depth = 32
            visual = info.visual
            // A window of another depth than its parent needs its own colormap and border.
            attributes.colormap = XCreateColormap(handle, display.root, visual, AllocNone)
            attributes.border_pixel = 0
            mask |= CWColormap | CWBorderPixel
        }
        pixmap = XCreatePixmap(handle, display.root, UInt32(content.width), UInt32(content.height), UInt32(depth))
        try Self.put(content, into: pixmap, display: display, visual: visual, depth: depth)
        attributes.background_pixmap = pixmap
        attributes.event_mask = ExposureMask | StructureNotifyMask
        id = XCreateWindow(handle, display.root, Int32(frame.x), Int32(frame.y), UInt32(frame.width), UInt32(frame.height),
                           0, depth, UInt32(InputOutput), visual, UInt(mask), &attributes)
        setNames(instance: instance, className: className, title: title)
        var hints = XSizeHints()
        hints.flags = USPosition | USSize
        hints.x = Int32(frame.x)
        hints.y = Int32(frame.y)
        hints.width = Int32(frame.width)
        hints.height = Int32(frame.height)
        XSetWMNormalHints(handle, id, &hints)
        XMapWindow(handle, id)
        try waitFor(Expose)
    }

    deinit { destroy() }

    private var destroyed = false

    /// Unmaps and destroys the window (idempotent).
    public func destroy() {
        guard !destroyed, !display.isLost else { return }
        destroyed = true
        XDestroyWindow(display.handle, id)
        XFreePixmap(display.handle, pixmap)
        display.sync()
    }

    /// Moves the window so its client area's top-left is at (x, y) on the root, and waits for
    /// the move to take effect. A window manager may place the frame, not the client, at the
    /// requested point; the request is then corrected once by the decoration's offset.
    public func move(x: Int, y: Int) throws(X11Error) {
        var request = (x: x, y: y)
        for _ in 0..<2 {
            let start = try display.geometry(of: id).frame
            XMoveWindow(display.handle, id, Int32(request.x), Int32(request.y))
            display.flush()
            // Each ConfigureNotify (real or from the window manager) may mean the move is done.
            _ = display.waitForEvent(on: id, mask: StructureNotifyMask, seconds: 3) { event in
                guard event.type == ConfigureNotify, let frame = try? display.geometry(of: id).frame else { return false }
                return frame.x != start.x || frame.y != start.y
            }
            let frame = try display.geometry(of: id).frame
            if frame.x == x, frame.y == y { return }
            request = (request.x - (frame.x - x), request.y - (frame.y - y))
        }
        throw X11Error(.capture, "window \(hexID(UInt(id))) did not move to +\(x)+\(y)")
    }

    /// Starts recording button presses on this window: the shield's tests check that clicks
    /// pass through its covers.
    public func listenForClicks() {
        XSelectInput(display.handle, id, ExposureMask | StructureNotifyMask | ButtonPressMask)
        display.sync()
    }

    /// Waits (bounded) for a button press on this window, after `listenForClicks`.
    public func waitForClick(seconds: Double) -> Bool {
        display.waitForEvent(on: id, mask: ButtonPressMask, seconds: seconds) { $0.type == ButtonPress }
    }

    private func setNames(instance: String, className: String, title: String) {
        let handle = display.handle
        instance.withCString { instancePointer in
            className.withCString { classPointer in
                var hint = XClassHint(res_name: UnsafeMutablePointer(mutating: instancePointer),
                                      res_class: UnsafeMutablePointer(mutating: classPointer))
                XSetClassHint(handle, id, &hint)
            }
        }
        XStoreName(handle, id, title)
        let utf8 = Array(title.utf8)
        XChangeProperty(handle, id, display.atom("_NET_WM_NAME"), display.atom("UTF8_STRING"), 8, PropModeReplace,
                        utf8, Int32(utf8.count))
    }

    private func waitFor(_ type: Int32) throws(X11Error) {
        guard display.waitForEvent(on: id, mask: ExposureMask | StructureNotifyMask, seconds: 5, { $0.type == type }) else {
            throw X11Error(.capture, "window \(hexID(UInt(id))) was not shown within 5 s")
        }
        display.sync()
    }

    /// Copies `image` into `pixmap` with XPutImage.
    static func put(_ image: PixelBuffer, into pixmap: Pixmap, display: Display,
                    visual: UnsafeMutablePointer<Visual>? = nil, depth: Int32? = nil) throws(X11Error) {
        var pixels = image.pixels
        let (status, error) = pixels.withUnsafeMutableBytes { bytes in
            display.trap { () -> Int32 in
                guard let ximage = XCreateImage(display.handle, visual ?? display.visual, UInt32(depth ?? display.depth), ZPixmap, 0,
                                                bytes.baseAddress!.assumingMemoryBound(to: CChar.self),
                                                UInt32(image.width), UInt32(image.height), 32, Int32(image.width * 4))
                else { return 0 }
                let gc = XCreateGC(display.handle, pixmap, 0, nil)
                XPutImage(display.handle, pixmap, gc, ximage, 0, 0, 0, 0, UInt32(image.width), UInt32(image.height))
                XFreeGC(display.handle, gc)
                ximage.pointee.data = nil  // owned by Swift, not by Xlib
                _ = ximage.pointee.f.destroy_image(ximage)
                return 1
            }
        }
        guard status != 0, error == nil else {
            throw X11Error(.capture, "cannot paint a window: \(error.map(\.name) ?? "XCreateImage failed")")
        }
    }
}

extension Display {
    /// Sets the root window's background to `image` (tiled from the top-left) and repaints it:
    /// the desktop of a display without one.
    public func setRootBackground(_ image: PixelBuffer) throws(X11Error) {
        let pixmap = XCreatePixmap(handle, root, UInt32(image.width), UInt32(image.height), UInt32(depth))
        try PaintedWindow.put(image, into: pixmap, display: self)
        XSetWindowBackgroundPixmap(handle, root, pixmap)
        XClearWindow(handle, root)
        XFreePixmap(handle, pixmap)
        sync()
    }
}
