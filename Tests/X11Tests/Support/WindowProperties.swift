// Setting the window properties the tests give their windows: types, opacity, transient-for, shape.
import CX11
import ShotguardImaging
import ShotguardX11

extension Display {
    /// Sets format-32 `property` of `type` on `window` to `values` and waits for the server.
    func setLongs(_ property: String, type: Atom, _ values: [UInt], on window: Window) {
        var longs = values
        longs.withUnsafeMutableBytes { bytes in
            _ = XChangeProperty(handle, window, atom(property), type, 32, PropModeReplace,
                                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(values.count))
        }
        sync()
    }

    /// `_NET_WM_WINDOW_TYPE` = the atoms of `names`.
    func setWindowTypes(_ names: [String], on window: Window) {
        setLongs("_NET_WM_WINDOW_TYPE", type: XA_ATOM, names.map { UInt(atom($0)) }, on: window)
    }

    /// Makes `window`'s bounding shape the rectangle `rect` (in its own coordinates).
    func shape(_ window: Window, to rect: Rect) {
        var rectangle = XRectangle(x: Int16(rect.x), y: Int16(rect.y), width: UInt16(rect.width), height: UInt16(rect.height))
        XShapeCombineRectangles(handle, window, ShapeBounding, 0, 0, &rectangle, 1, ShapeSet, Unsorted)
        sync()
    }
}
