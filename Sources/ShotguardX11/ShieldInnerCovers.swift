// Covers inside the protected windows: what a capture of one window's own pixels shows.
import CX11
import ShotguardImaging

/// A protected window, what of it to cover inside (relative to its origin), whether its
/// decorations are covered too (the rules name the whole window, title bar included), and the
/// colour (0xRRGGBB) to cover it with.
public struct InnerCoverTarget: Equatable, Sendable {
    public var window: UInt
    public var rects: [Rect]
    public var coversFrame: Bool
    public var rgb: UInt32

    public init(window: UInt, rects: [Rect], coversFrame: Bool = false, rgb: UInt32) {
        self.window = window
        self.rects = rects
        self.coversFrame = coversFrame
        self.rgb = rgb
    }
}

/// A program that captures one window (OBS's window capture and a browser sharing a window name
/// its pixmap; `maim -i` redirects it and reads it) gets that window's own pixels, drawn whole
/// wherever it lies: the shield's covers are windows of their own on the screen, and nothing of
/// them is in those pixels. A window made a child of the protected window is: one per rectangle
/// the rules name of it (the whole window: far larger than any, as a child is clipped to its
/// parent), its background the fill, its input shape empty (clicks reach the window), mapped
/// while something captures that window or one of its ancestors (the window manager's frame
/// around it). The user sees them too, as the screen's covers. The frame's decorations (the
/// title bar) are the window manager's, in the frame's own pixels, which a capture of the frame
/// takes (OBS's window capture does): when the rules name the whole window, one more child, of
/// the frame, covers all of it. A window the window manager frames again (it unmapped and mapped
/// it, or another window manager took over) is followed by its ReparentNotify: the frame's cover
/// is made in the new frame (those inside move with the window). A child the program (or the
/// window manager, in the frame) maps or raises over them later has them raised over it again.
public final class ShieldInnerCovers {
    private let display: Display
    private let emptyRegion: XserverRegion
    private var targets: [UInt: InnerCoverTarget] = [:]
    /// The children made inside each protected window; they move with it.
    private var inside: [UInt: [Window]] = [:]
    /// The child made in each protected window's frame, with that frame.
    private var frameCovers: [UInt: (frame: UInt, cover: Window)] = [:]
    /// Each protected window's ancestors (its frame, the root), nearest first, asked when it
    /// became a target and again when it is reparented.
    private var ancestors: [UInt: [UInt]] = [:]
    /// The windows and frames whose events this connection selected, with what it selected
    /// there before (given back when they are no longer covered).
    private var selected: [UInt: Int] = [:]
    private var mapped: Set<UInt> = []
    /// Raises since the covers were last shown: a program that raised its child at every raise
    /// of theirs would otherwise trade places with them forever.
    private var raises = 0
    static let maximumRaises = 64

    /// Far larger than any window; the protocol's sizes are 16 bits.
    public static let size: UInt32 = 16_384

    init(display: Display) {
        self.display = display
        emptyRegion = XFixesCreateRegion(display.handle, nil, 0)
    }

    deinit {
        guard !display.isLost else { return }
        // A child whose window is gone went with it: the error is only recorded.
        for child in inside.values.joined() { XDestroyWindow(display.handle, child) }
        for made in frameCovers.values { XDestroyWindow(display.handle, made.cover) }
        XFixesDestroyRegion(display.handle, emptyRegion)
        display.flush()
    }

    /// Every protected window (a shield key covers them all).
    var all: Set<UInt> { Set(targets.keys) }

    /// The protected windows now: children of windows no longer protected are destroyed, new
    /// ones made (unmapped) when first shown.
    func update(_ list: [InnerCoverTarget]) {
        let next = Dictionary(list.map { ($0.window, $0) }, uniquingKeysWith: { first, _ in first })
        for (window, target) in targets where next[window] != target {
            // Made again, as they are now, the next time they are shown.
            destroy(inside.removeValue(forKey: window) ?? [])
            destroy(frameCovers.removeValue(forKey: window).map { [$0.cover] } ?? [])
            mapped.remove(window)
        }
        for window in next.keys where targets[window] == nil {
            // Heard first: a reparenting between the two would otherwise go unseen.
            select(StructureNotifyMask | SubstructureNotifyMask, on: window)
            ancestors[window] = chain(above: window)
        }
        ancestors = ancestors.filter { next[$0.key] != nil }
        targets = next
        deselectUnused()
        display.flush()
    }

    /// Takes the structure events of the protected windows and their covered frames (selected
    /// for them); true when `event` was one. A window framed anew has its frame's cover made
    /// again in the new frame (those inside it move with it). A child mapped, raised or restacked
    /// over the covers of a window (or frame) whose covers are up has them raised again.
    func handle(_ event: inout XEvent) -> Bool {
        switch event.type {
        case ReparentNotify, MapNotify, ConfigureNotify, CirculateNotify, UnmapNotify, DestroyNotify, GravityNotify, CreateNotify: break
        default: return false
        }
        let parent = UInt(event.xany.window)
        guard parent != UInt(display.root), selected[parent] != nil else { return false }
        let windows = targets[parent] != nil ? [parent] : frameCovers.filter { $0.value.frame == parent }.map(\.key)
        switch event.type {
        case DestroyNotify where UInt(event.xdestroywindow.window) == parent:
            // Gone, with what this connection selected there.
            selected[parent] = nil
        case ReparentNotify where targets[parent] != nil && UInt(event.xreparent.window) == parent:
            reframe(parent)
        case MapNotify:
            raise(windows, over: UInt(event.xmap.window))
        case ConfigureNotify where UInt(event.xconfigure.window) != parent:
            // Only a restack that put something right above a cover; a resize leaves them be.
            let above = UInt(event.xconfigure.above)
            raise(windows.filter { covers(of: $0).contains { UInt($0) == above } }, over: UInt(event.xconfigure.window))
        case CirculateNotify where event.xcirculate.place == PlaceOnTop:
            raise(windows, over: UInt(event.xcirculate.window))
        default:
            break
        }
        return true
    }

    /// The protected windows whose own pixels a capture of `window` takes: that window, or one
    /// it lies in (its frame).
    func covered(byCaptureOf window: UInt) -> Set<UInt> {
        Set(targets.keys.filter { $0 == window || ancestors[$0]?.contains(window) == true })
    }

    /// Maps the children of `windows` (raised over the window's own children) and unmaps the
    /// others, in one flush. Returns how many are up.
    @discardableResult
    func show(_ windows: Set<UInt>) -> Int {
        let wanted = windows.filter { targets[$0] != nil }
        for window in mapped.subtracting(wanted) {
            for child in covers(of: window) { XUnmapWindow(display.handle, child) }
        }
        for window in wanted {
            make(in: window)
            for child in covers(of: window) { XMapRaised(display.handle, child) }
        }
        mapped = wanted
        raises = 0
        display.flush()
        return wanted.count
    }

    /// Every cover of `window`: inside it, and in its frame.
    private func covers(of window: UInt) -> [Window] {
        (inside[window] ?? []) + (frameCovers[window].map { [$0.cover] } ?? [])
    }

    /// Raises the covers of those of `windows` that are up over `subject`, unless it is one of
    /// them, within the budget.
    private func raise(_ windows: [UInt], over subject: UInt) {
        for window in windows where mapped.contains(window) && raises < Self.maximumRaises {
            let own = covers(of: window)
            guard !own.contains(where: { UInt($0) == subject }) else { continue }
            raises += 1
            for child in own { XRaiseWindow(display.handle, child) }
        }
        display.flush()
    }

    /// `window` was reparented: its frame's cover is made in the new frame (and mapped, when its
    /// covers are up) before the old one goes, so that a capture never finds it uncovered.
    private func reframe(_ window: UInt) {
        ancestors[window] = chain(above: window)
        let old = frameCovers.removeValue(forKey: window)
        if mapped.contains(window) {
            make(in: window)
            if let made = frameCovers[window] { XMapRaised(display.handle, made.cover) }
        }
        // The old frame, and the cover made in it, may be gone already.
        destroy(old.map { [$0.cover] } ?? [])
        deselectUnused()
        display.flush()
    }

    /// Makes what is missing of `window`'s covers, unmapped: those inside it, and the one in its
    /// frame (the top-level window holding it, when that is not the window itself) when the
    /// rules name it whole. What could not be made (the window is gone) is tried again.
    private func make(in window: UInt) {
        guard let target = targets[window], let parent = Window(exactly: window) else { return }
        if inside[window] == nil {
            let made = covers(in: parent, rects: target.rects, rgb: target.rgb)
            if !made.isEmpty { inside[window] = made }
        }
        guard target.coversFrame, frameCovers[window] == nil, let chain = ancestors[window], chain.count >= 2,
              chain.last == UInt(display.root), let frame = Window(exactly: chain[chain.count - 2]) else { return }
        // The window manager's decorations, mapped or restacked later, are heard.
        select(SubstructureNotifyMask, on: UInt(frame))
        let whole = Rect(x: 0, y: 0, width: Int(Self.size), height: Int(Self.size))
        if let cover = covers(in: frame, rects: [whole], rgb: target.rgb).first { frameCovers[window] = (UInt(frame), cover) }
    }

    private func destroy(_ windows: [Window]) {
        guard !windows.isEmpty else { return }
        _ = ErrorTrap.run(display.handle) { for window in windows { XDestroyWindow(display.handle, window) } }
    }

    /// Unmapped children of `parent` over `rects` (its coordinates) in `rgb`; none when it is gone.
    private func covers(in parent: Window, rects: [Rect], rgb: UInt32) -> [Window] {
        let handle = display.handle
        // The child takes the window's depth and visual (CopyFromParent): in a 32-bit (ARGB)
        // window its pixel is opaque only with the alpha bits set.
        var parentAttributes = XWindowAttributes()
        let (status, lookup) = ErrorTrap.run(handle) { XGetWindowAttributes(handle, parent, &parentAttributes) }
        guard status != 0, lookup == nil else { return [] }
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = display.pixel(rgb: rgb) | (parentAttributes.depth == 32 ? 0xFF00_0000 : 0)
        attributes.border_pixel = 0
        // A rectangle reaching past the window's left or top edge starts at it; past its right
        // or bottom, the window clips it.
        let (made, error) = ErrorTrap.run(handle) { () -> [Window] in
            rects.map { rect in
                let x = max(0, rect.x), y = max(0, rect.y)
                let width = UInt32(clamping: min(Int(Self.size), rect.maxX - x)), height = UInt32(clamping: min(Int(Self.size), rect.maxY - y))
                let child = XCreateWindow(handle, parent, Int32(x), Int32(y), max(1, width), max(1, height), 0, 0, UInt32(InputOutput), nil,
                                          UInt(CWOverrideRedirect | CWBackPixel | CWBorderPixel), &attributes)
                XFixesSetWindowShapeRegion(handle, child, ShapeInput, 0, 0, emptyRegion)
                XStoreName(handle, child, ShieldOverlays.title)
                return child
            }
        }
        guard error == nil else {
            for child in made { XDestroyWindow(handle, child) }
            return []
        }
        return made
    }

    /// The windows above `window` up to the root, nearest first, by parent (a few round trips).
    private func chain(above window: UInt) -> [UInt] {
        var found: [UInt] = []
        var current = UInt32(exactly: window)
        while let next = current.flatMap({ display.parent(of: $0) }), next != 0, found.count < 8 {
            found.append(UInt(next))
            if UInt(next) == UInt(display.root) { break }
            current = next
        }
        return found
    }

    /// Selects `mask` of `window`'s events on this connection, beside whatever it selected
    /// there before.
    private func select(_ mask: Int, on window: UInt) {
        guard selected[window] == nil, let id = Window(exactly: window) else { return }
        let handle = display.handle
        var attributes = XWindowAttributes()
        let (status, lookup) = ErrorTrap.run(handle) { XGetWindowAttributes(handle, id, &attributes) }
        guard status != 0, lookup == nil else { return }
        selected[window] = attributes.your_event_mask
        _ = ErrorTrap.run(handle) { XSelectInput(handle, id, attributes.your_event_mask | mask) }
    }

    /// Gives the windows and frames no longer covered back the events this connection selected
    /// there before (they may be gone).
    private func deselectUnused() {
        let frames = Set(frameCovers.values.map(\.frame))
        for (window, before) in selected where targets[window] == nil && !frames.contains(window) {
            selected[window] = nil
            guard let id = Window(exactly: window) else { continue }
            _ = ErrorTrap.run(display.handle) { XSelectInput(display.handle, id, before) }
        }
    }
}
