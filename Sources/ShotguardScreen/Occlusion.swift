// Which windows hide a window's pixels: the opaque windows above it in stacking order.
import ShotguardImaging

extension ScreenContext {
    /// The position of window `id` in `windows` (bottom first), or nil when it is not there.
    public func index(ofWindow id: UInt) -> Int? {
        windows.firstIndex { $0.id == id }
    }

    /// The viewable opaque windows above `windows[index]` whose opaque areas meet `rect`,
    /// nearest first: what hides that window's pixels in `rect`. A window that is not opaque
    /// (see `WindowInfo.isOpaque`) hides nothing.
    public func windowsHiding(_ rect: Rect, aboveWindowAt index: Int) -> [WindowInfo] {
        guard windows.indices.contains(index) else { return [] }
        return windows[(index + 1)...].reversed().filter { window in
            window.isViewable && window.isOpaque && !window.opaqueArea.intersection(rect).isEmpty
        }
    }

    /// What shows of `rect` of the window at `index`: `rect` with the opaque area of every
    /// opaque window above it cut out, larger cuts first (they leave fewer pieces). A cut that
    /// would split it into more than `DisjointRects.defaultLimit` pieces is left out, so the
    /// result may be more than is visible, never less.
    public func visibleParts(of rect: Rect, ofWindowAt index: Int) -> DisjointRects {
        var visible = DisjointRects(rect)
        let holes = windowsHiding(rect, aboveWindowAt: index).map { $0.opaqueArea.intersection(rect) }
        for hole in holes.sorted(by: { $0.area > $1.area }) where !visible.isEmpty {
            visible.subtract(hole)
        }
        return visible
    }
}
