// Covers under a compositing manager: put into the screen's pixels with their maps, ahead of the manager's frames, and kept there.
import CX11
import Glibc
import ShotguardImaging

/// A compositing manager draws every window into a pixmap of its own and composes the screen
/// from those, onto its overlay window, at its next frame: a cover mapped now reaches the
/// screen's pixels only when the manager paints (picom, xrender backend: a median 2.8 ms and up
/// to 8 ms after the map on an idle server), and a frame it composed before it heard of the map
/// — the repaint of the same covers' last lowering, when Print is pressed again — paints the
/// window beneath over anything put there. A tool reading the screen a few milliseconds after
/// the key could see the protected window.
///
/// So while a manager owns `_NET_WM_CM_S0`, the covers mapped also have (in the maps' flush, no
/// reply awaited) their colour painted into the screen's pixels over every window, and the
/// overlay window's bounding shape leaves their rectangles out: there the root shows, painted
/// in the covers' colour, and nothing the manager draws reaches them. When the covers come down
/// the shape is whole again; the server tells the manager the area is exposed and it repaints it
/// from its windows, the covers gone. Nothing painted here outlives the covers. Without a
/// manager nothing of this happens: the server draws a mapped cover's background itself, at once.
extension ShieldOverlays {
    /// Whether a compositing manager owns `_NET_WM_CM_S0` now and, if so, its overlay window
    /// (round trips), for a caller that raises the covers once (`shotguard shield -- COMMAND`).
    public func lookForCompositor() {
        guard !display.isLost else { return }
        underCompositor = XGetSelectionOwner(display.handle, compositorSelection) != 0
        overlayWindow = 0
        holes = []
        if underCompositor { findOverlay() }
    }

    /// Follows the compositing manager's arrivals and departures on this connection (XFixes
    /// selection events, read by `compositorChanged`), starting from whether one is there now.
    func followCompositor() {
        guard !display.isLost else { return }
        let events = XFixesSetSelectionOwnerNotifyMask | XFixesSelectionWindowDestroyNotifyMask
            | XFixesSelectionClientCloseNotifyMask
        XFixesSelectSelectionInput(display.handle, display.root, compositorSelection, UInt(events))
        lookForCompositor()
    }

    /// Whether `event` says a compositing manager came or went (then noted); false for any
    /// other event. A manager takes the selection before it makes its overlay window: that is
    /// looked up later (`windowMapped`, `settle`).
    func compositorChanged(_ event: inout XEvent) -> Bool {
        guard event.type == fixesEventBase + XFixesSelectionNotify else { return false }
        let notify = withUnsafePointer(to: &event) {
            $0.withMemoryRebound(to: XFixesSelectionNotifyEvent.self, capacity: 1) { $0.pointee }
        }
        guard notify.selection == compositorSelection else { return false }
        // A new owner, or none: the owner's window destroyed or its client gone (its overlay
        // window with it, and the holes in that window's shape).
        underCompositor = notify.subtype == XFixesSetSelectionOwnerNotify && notify.owner != 0
        overlayWindow = 0
        holes = []
        overlayPending = underCompositor
        return true
    }

    /// A child of the root was mapped: a manager that arrived maps its overlay window once it
    /// composes the screen, so it is looked up now (one round trip, not on a key's path).
    func windowMapped() {
        if overlayPending { findOverlay() }
    }

    /// The covers are down: a manager's overlay window still to look up is looked up now.
    func settle() {
        if overlayPending, !isUp { findOverlay() }
    }

    /// Puts the covers at `indices` (just mapped) into the screen's pixels under a compositing
    /// manager: their colours painted over every window, the overlay window's shape holed over
    /// exactly the covers up, and painted again (the hole shows the root, whose background the
    /// server paints there). Requests only, sent by the caller's flush; nothing without a manager.
    func coverThrough(_ indices: [Int]) {
        guard underCompositor, !display.isLost else { return }
        paintThrough(indices)
        let rects = indices.filter { $0 < covers.count }.map { covers[$0].rect }
        guard overlayWindow != 0, rects != holes else { return }
        shapeOverlay(leavingOut: rects)
        paintThrough(indices)
    }

    /// The overlay window's shape whole again (the covers came down): the manager repaints what
    /// the holes showed. Nothing when there are no holes.
    func closeHoles() {
        guard !holes.isEmpty, !display.isLost else { return }
        shapeOverlay(leavingOut: [])
    }

    /// Sets the overlay window's bounding shape to everything but `rects` (none: no shape, as
    /// the manager left it). An error (the window gone with its manager) is recorded and ignored.
    private func shapeOverlay(leavingOut rects: [Rect]) {
        let handle = display.handle
        holes = rects
        let marker = display.atom(Self.holesProperty)
        guard !rects.isEmpty else {
            XShapeCombineMask(handle, overlayWindow, ShapeBounding, 0, 0, 0, ShapeSet)
            XDeleteProperty(handle, overlayWindow, marker)
            return
        }
        // Who cut the holes, on the overlay itself: a run killed with covers up leaves them,
        // and the next run's `findOverlay` closes them once that process is gone.
        var owner = UInt(getpid())
        _ = withUnsafeBytes(of: &owner) { bytes in
            XChangeProperty(handle, overlayWindow, marker, XA_CARDINAL, 32, PropModeReplace,
                            bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
        // As wide as X coordinates go (a region's boxes are 16-bit signed): the shape is cut to
        // the window, however the screen is resized.
        guard let shape = XCreateRegion(), let hole = XCreateRegion() else { return }
        var everything = XRectangle(x: 0, y: 0, width: UInt16(Int16.max), height: UInt16(Int16.max))
        XUnionRectWithRegion(&everything, shape, shape)
        for rect in rects {
            guard var cut = Self.xRectangle(rect) else { continue }
            XUnionRectWithRegion(&cut, hole, hole)
        }
        XSubtractRegion(shape, hole, shape)
        XShapeCombineRegion(handle, overlayWindow, ShapeBounding, 0, 0, shape, ShapeSet)
        XDestroyRegion(hole)
        XDestroyRegion(shape)
    }

    /// Queues a fill of each cover at `indices` in its colour straight into the screen's pixels,
    /// over every window (a GC on the root with IncludeInferiors).
    private func paintThrough(_ indices: [Int]) {
        guard let context = throughContext ?? makeThroughContext() else { return }
        for index in indices where index < covers.count {
            let rect = covers[index].rect
            guard let width = UInt32(exactly: rect.width), let height = UInt32(exactly: rect.height),
                  let x = Int32(exactly: rect.x), let y = Int32(exactly: rect.y) else { continue }
            XSetForeground(display.handle, context, display.pixel(rgb: covers[index].rgb))
            XFillRectangle(display.handle, display.root, context, x, y, width, height)
        }
    }

    /// A GC on the root that draws over its children and asks for no exposure events; nil when
    /// Xlib could not allocate one (the covers are then only mapped).
    private func makeThroughContext() -> GC? {
        var values = XGCValues()
        values.subwindow_mode = IncludeInferiors
        values.graphics_exposures = 0
        throughContext = XCreateGC(display.handle, display.root, UInt(GCSubwindowMode | GCGraphicsExposures), &values)
        return throughContext
    }

    /// The manager's overlay window: Composite's GetOverlayWindow names it (the manager made it
    /// and holds it), and the reference taken so is given back at once, so that this process
    /// never keeps it mapped after the manager let it go. Left unknown (no holes, the covers only
    /// painted) when libXcomposite or the extension is missing.
    private func findOverlay() {
        overlayPending = false
        guard CompositeLibrary.failure == nil, !display.isLost else { return }
        var eventBase: Int32 = 0, errorBase: Int32 = 0, major: Int32 = 0, minor: Int32 = 4
        guard sg_XCompositeQueryExtension(display.handle, &eventBase, &errorBase) != 0,
              sg_XCompositeQueryVersion(display.handle, &major, &minor) != 0, major > 0 || minor >= 3 else { return }
        let window = sg_XCompositeGetOverlayWindow(display.handle, display.root)
        sg_XCompositeReleaseOverlayWindow(display.handle, display.root)
        // A manager that draws on the root instead holds no overlay window: the one made for
        // this request went with its release, and its id names nothing to shape.
        var attributes = XWindowAttributes()
        let (_, error) = display.trap { XGetWindowAttributes(display.handle, window, &attributes) }
        overlayWindow = error == nil && window != 0 ? window : 0
        // Holes a run of ours cut and could not close (it was killed with covers up): the
        // manager's frames would show black there for as long as it runs.
        if overlayWindow != 0, let owner = display.cardinals(Self.holesProperty, of: overlayWindow)?.first,
           kill(pid_t(truncatingIfNeeded: owner), 0) != 0, errno == ESRCH {
            shapeOverlay(leavingOut: [])
        }
    }

    /// The property on the overlay window naming the process whose holes are cut in it.
    static let holesProperty = "_SHOTGUARD_SHIELD_HOLES"

    /// `rect` as an X rectangle, cut to what 16-bit coordinates can name (no screen is larger):
    /// nil when nothing of it is left.
    private static func xRectangle(_ rect: Rect) -> XRectangle? {
        let named = rect.intersection(Rect(x: 0, y: 0, width: Int(Int16.max), height: Int(Int16.max)))
        guard !named.isEmpty, let x = Int16(exactly: named.x), let y = Int16(exactly: named.y),
              let width = UInt16(exactly: named.width), let height = UInt16(exactly: named.height) else { return nil }
        return XRectangle(x: x, y: y, width: width, height: height)
    }
}

/// libXcomposite, loaded when the shield first meets a compositing manager (CX11's
/// sg_x_composite.h says why).
enum CompositeLibrary {
    /// Nil once it is loaded, else why not ("cannot load …"). Loaded at the first read of this.
    static let failure: String? = {
        var message = [CChar](repeating: 0, count: 512)
        guard sg_x_composite_load(&message, message.count) != 0 else { return nil }
        return String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}
