// The shield's windows: prepared, unmapped covers in a fill colour, mapped in one flush on a key.
import CX11
import ShotguardImaging
import ShotguardScreen

/// One override-redirect window per rectangle to cover, created in advance and kept unmapped
/// until `raise`. Their background pixel is the fill colour, so the server paints them itself
/// the moment they are mapped, with no drawing request from this process. Their input shape is
/// empty (clicks pass through to the window beneath) and, override-redirect, no window manager
/// gives them focus.
public final class ShieldOverlays {
    /// WM_NAME of every overlay, so tools and tests can tell them from other windows.
    public static let title = "shotguard shield"

    let display: Display
    /// The overlays, in the order of the rectangles last given to `update`.
    private var windows: [Window] = []
    private(set) var covers: [ShieldCover] = []
    private let emptyRegion: XserverRegion
    /// The property whose empty append stamps the covers' mapping with the server's time.
    let stampProperty: Atom
    public private(set) var isUp = false
    /// XFixes' first event number: its selection events say when a compositing manager comes or goes.
    let fixesEventBase: Int32
    /// `_NET_WM_CM_S0`, the selection a compositing manager owns.
    let compositorSelection: Atom
    /// Whether a compositing manager draws the screen: a mapped cover then reaches the screen's
    /// pixels only with the manager's next frame, so `raise` and `show` also put the covers'
    /// colours straight into them (ShieldOverlays+Compositor.swift).
    public internal(set) var underCompositor = false
    /// The root's GC that paints through every window, made on first use.
    var throughContext: GC?
    /// The manager's overlay window (Composite's), 0 when unknown.
    var overlayWindow: Window = 0
    /// A manager arrived and its overlay window is to be looked up once it has made it.
    var overlayPending = false
    /// The rectangles the overlay window's shape leaves out now (the covers up).
    var holes: [Rect] = []

    /// Needs XFixes 2.0 for input shapes (an empty one lets every click through).
    public init(display: Display) throws(X11Error) {
        self.display = display
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        var major: Int32 = 2, minor: Int32 = 0
        guard XFixesQueryExtension(display.handle, &eventBase, &errorBase) != 0,
              XFixesQueryVersion(display.handle, &major, &minor) != 0, major >= 2 else {
            throw X11Error(.unsupported, "the X server has no XFixes 2.0: --shield cannot make covers that let clicks through")
        }
        fixesEventBase = eventBase
        emptyRegion = XFixesCreateRegion(display.handle, nil, 0)
        stampProperty = display.atom("_SHOTGUARD_SHIELD_TIME")
        compositorSelection = display.atom("_NET_WM_CM_S0")
    }

    deinit {
        guard !display.isLost else { return }
        for window in windows { XDestroyWindow(display.handle, window) }
        XFixesDestroyRegion(display.handle, emptyRegion)
        closeHoles()
        if let throughContext { XFreeGC(display.handle, throughContext) }
        display.flush()
    }

    /// The overlay windows, to leave out of the screen's window list.
    public private(set) var ids: Set<UInt> = []

    public func contains(_ window: Window) -> Bool { ids.contains(UInt(window)) }

    /// Whether `window` is a shield's cover, this process's or another shotguard's: an
    /// override-redirect window with the covers' title.
    public static func isCover(_ window: WindowInfo) -> Bool { window.isOverrideRedirect && window.title == title }

    public var count: Int { windows.count }

    /// Maps and raises every overlay and flushes: the key-to-cover path. No reply is awaited;
    /// the server paints each background as it maps it. Under a compositing manager the covers'
    /// colours are put into the screen's pixels first, in the same flush, so that a client told
    /// of the maps (MapNotify) can read nothing of what they cover.
    /// With `stamped`, a zero-length property append follows the maps in the same flush, so
    /// that `stampTime()` can tell when the server had them done.
    public func raise(stamped: Bool = false) {
        coverThrough(covers.indices.filter { $0 < windows.count })
        for window in windows { XMapRaised(display.handle, window) }
        if stamped { queueStamp() }
        XFlush(display.handle)
        isUp = true
    }

    /// Shows exactly the covers whose rectangle `shown` accepts (each mapped and raised, or
    /// unmapped), in one flush: the covers over what a recording reads, the others down.
    /// Returns how many are up.
    @discardableResult
    public func show(where shown: (Rect) -> Bool) -> Int {
        let mapped = windows.indices.filter { $0 < covers.count && shown(covers[$0].rect) }
        // In the screen's pixels before the maps (under a compositing manager), as `raise` does.
        if !mapped.isEmpty { coverThrough(mapped) }
        for (index, window) in windows.enumerated() where index < covers.count {
            if mapped.contains(index) { XMapRaised(display.handle, window) } else { XUnmapWindow(display.handle, window) }
        }
        if mapped.isEmpty { closeHoles() }
        XFlush(display.handle)
        isUp = !mapped.isEmpty
        return mapped.count
    }

    /// The covers' rectangles, in order.
    public var rects: [Rect] { covers.map(\.rect) }

    /// Puts the overlays back on top (a window mapped or raised above them while they are up).
    public func keepOnTop() {
        guard isUp else { return }
        for window in windows { XRaiseWindow(display.handle, window) }
        XFlush(display.handle)
    }

    /// One round trip: once it returns, the server has executed every request any client sent
    /// before the ones this process just received word of (a recorded screen read).
    public func sync() { XSync(display.handle, 0) }

    /// Unmaps every overlay.
    public func lower() {
        for window in windows { XUnmapWindow(display.handle, window) }
        closeHoles()
        // A round trip, not a flush: once this returns the server has unmapped them, so a
        // client that reads the screen after hearing "lowered" sees the windows beneath.
        XSync(display.handle, 0)
        isUp = false
    }

    /// Makes the overlays match `covers`: existing windows are moved, resized and recoloured,
    /// missing ones created (and mapped when the shield is up), extra ones destroyed.
    public func update(_ covers: [ShieldCover]) {
        guard covers != self.covers, !display.isLost else { return }
        let handle = display.handle
        for (index, cover) in covers.enumerated() {
            let rect = cover.rect
            let pixel = display.pixel(rgb: cover.rgb)
            if index < windows.count {
                let window = windows[index]
                XMoveResizeWindow(handle, window, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height))
                XSetWindowBackground(handle, window, pixel)
                if isUp {
                    XClearWindow(handle, window)
                    XRaiseWindow(handle, window)
                }
            } else {
                let window = create(rect, pixel: pixel)
                windows.append(window)
                ids.insert(UInt(window))
                if isUp { XMapRaised(handle, window) }
            }
        }
        while windows.count > covers.count { XDestroyWindow(handle, windows.removeLast()) }
        self.covers = covers
        ids = Set(windows.map { UInt($0) })
        display.flush()
    }

    private func create(_ rect: Rect, pixel: UInt) -> Window {
        let handle = display.handle
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = pixel
        attributes.border_pixel = 0
        let window = XCreateWindow(handle, display.root, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height),
                                   0, 0 /* CopyFromParent */, UInt32(InputOutput), nil,
                                   UInt(CWOverrideRedirect | CWBackPixel | CWBorderPixel), &attributes)
        XFixesSetWindowShapeRegion(handle, window, ShapeInput, 0, 0, emptyRegion)
        XStoreName(handle, window, Self.title)
        // Never given focus by a manager that looks at it anyway.
        var hints = XWMHints()
        hints.flags = InputHint
        hints.input = 0
        XSetWMHints(handle, window, &hints)
        return window
    }
}

/// A rectangle of the screen to cover, and the colour (0xRRGGBB) to cover it with.
public struct ShieldCover: Equatable, Sendable {
    public var rect: Rect
    public var rgb: UInt32

    public init(rect: Rect, rgb: UInt32) {
        self.rect = rect
        self.rgb = rgb
    }

    /// Solid fills shield in their colour; pixelate (a mosaic of pixels not yet read) in black.
    public init(rect: Rect, fill: Fill) {
        switch fill {
        case .solid(let rgb): self.init(rect: rect, rgb: rgb)
        case .pixelate: self.init(rect: rect, rgb: 0)
        }
    }
}

extension Display {
    /// The pixel value of an RGB colour in the default visual (TrueColor: each channel scaled
    /// into its mask). Computed here, so no colour allocation round trip is needed.
    func pixel(rgb: UInt32) -> UInt {
        let visual = self.visual.pointee
        func channel(_ value: UInt32, _ mask: UInt) -> UInt {
            guard mask != 0 else { return 0 }
            let shift = mask.trailingZeroBitCount
            let bits = (mask >> shift).nonzeroBitCount
            let scaled = bits >= 8 ? UInt(value) << (bits - 8) : UInt(value) >> (8 - bits)
            return (scaled << shift) & mask
        }
        return channel(rgb >> 16 & 0xFF, visual.red_mask) | channel(rgb >> 8 & 0xFF, visual.green_mask)
            | channel(rgb & 0xFF, visual.blue_mask)
    }
}
