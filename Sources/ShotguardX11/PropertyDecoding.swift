// Decodes window property values, which any client may set to anything: no value can trap.
import ShotguardImaging
import ShotguardScreen

/// Pure functions from the bytes and numbers the X server hands back to the values shotguard
/// uses. Every number is converted with a checked or truncating conversion; a value that makes
/// no sense (a negative or absurd extent, a window id outside X's 29 bits, a rectangle past the
/// protocol's 16-bit coordinates) is treated as absent. A fuzz target can call each of them.
public enum PropertyDecoding {
    /// The most bytes of a title that are read; the rest is dropped. Titles are set by the
    /// window's own program, and a megabyte title must not cost a megabyte per rule and event.
    /// Twice what a `title~` pattern examines, so that a title cut here is still too long for
    /// one and is redacted as undecided rather than matched on its beginning only.
    public static let maximumTextBytes = 8192
    /// The most windows a window-list property is read for.
    public static let maximumWindows = 4096
    /// The thickest window-manager decoration accepted on one side, in pixels.
    public static let maximumExtent = 4096

    /// The 32-bit values of format-32 data as Xlib returns it: one C `long` per value, which on
    /// a 64-bit system holds the 32 bits the server sent, sign-extended. Only the low 32 bits
    /// are the value.
    public static func cardinals(fromLongs items: some Collection<Int>) -> [UInt32] {
        items.map { UInt32(truncatingIfNeeded: $0) }
    }

    /// How many bytes of Xlib's buffer hold the `count` items of an `XGetWindowProperty` reply
    /// in `format` (one C `long` per format-32 item, a `short` per format-16 item, a byte per
    /// format-8 item), or nil when the format is none of these or the count is more than the
    /// `requestedUnits` 32-bit units that were asked for can hold: the server sends no more.
    public static func xlibBufferSize(format: Int32, count: UInt, requestedUnits: Int) -> Int? {
        let (itemSize, itemsPerUnit): (Int, Int)
        switch format {
        case 8: (itemSize, itemsPerUnit) = (1, 4)
        case 16: (itemSize, itemsPerUnit) = (MemoryLayout<Int16>.size, 2)
        case 32: (itemSize, itemsPerUnit) = (MemoryLayout<Int>.size, 1)
        default: return nil
        }
        let capacity = max(requestedUnits, 0).multipliedReportingOverflow(by: itemsPerUnit)
        guard let items = Int(exactly: count), !capacity.overflow, items <= capacity.partialValue else { return nil }
        return items * itemSize
    }

    /// The value in Xlib's buffer of an `XGetWindowProperty` reply, `xlibBufferSize` bytes:
    /// for format 32 the 32-bit values and the same values as little-endian bytes, for formats
    /// 8 and 16 the bytes alone; nil for any other format.
    public static func xlibValue(format: Int32, buffer: UnsafeRawBufferPointer) -> (items: [UInt32], bytes: [UInt8])? {
        switch format {
        case 32:
            let longs = (0..<buffer.count / MemoryLayout<Int>.size).map {
                buffer.loadUnaligned(fromByteOffset: $0 * MemoryLayout<Int>.size, as: Int.self)
            }
            let values = cardinals(fromLongs: longs)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(values.count * 4)
            for value in values { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
            return (values, bytes)
        case 8, 16:
            return ([], Array(buffer))
        default:
            return nil
        }
    }

    /// The 32-bit values of format-32 data sent as little-endian bytes (a property read through
    /// the wire or the clipboard's `TARGETS`); a trailing partial value is ignored.
    public static func cardinals(fromBytes bytes: [UInt8]) -> [UInt32] {
        stride(from: 0, to: bytes.count - bytes.count % 4, by: 4).map { (index: Int) -> UInt32 in
            var value: UInt32 = 0
            for byte in 0..<4 { value |= UInt32(bytes[index + byte]) << UInt32(8 * byte) }
            return value
        }
    }

    /// Whether `value` can be an X window id: not `None`, and within the 29 bits the protocol
    /// gives resource ids (the top three bits are always zero).
    public static func isWindowID(_ value: UInt32) -> Bool { value != 0 && value & 0xE000_0000 == 0 }

    /// A window-list property (`_NET_CLIENT_LIST_STACKING`): the ids that can be windows, in
    /// order, without repeats, at most `maximumWindows` of them.
    public static func windowList(_ values: [UInt32]) -> [UInt32] {
        var seen = Set<UInt32>()
        var windows: [UInt32] = []
        for value in values where isWindowID(value) && seen.insert(value).inserted {
            windows.append(value)
            if windows.count == maximumWindows { break }
        }
        return windows
    }

    /// A one-window property (`_NET_ACTIVE_WINDOW`): its first value when that can be a window.
    public static func window(_ values: [UInt32]) -> UInt32? {
        values.first.flatMap { isWindowID($0) ? $0 : nil }
    }

    /// The sizes of a window's decorations on each side.
    public struct FrameExtents: Equatable, Sendable {
        public var left: Int, right: Int, top: Int, bottom: Int

        public init(left: Int, right: Int, top: Int, bottom: Int) {
            (self.left, self.right, self.top, self.bottom) = (left, right, top, bottom)
        }

        public static let none = FrameExtents(left: 0, right: 0, top: 0, bottom: 0)
    }

    /// `_NET_FRAME_EXTENTS` (left, right, top, bottom): exactly four values, each from 0 to
    /// `maximumExtent`; anything else (a negative value sent as 0xffffffff) is absent.
    public static func frameExtents(_ values: [UInt32]) -> FrameExtents? {
        guard values.count == 4, values.allSatisfy({ $0 <= UInt32(maximumExtent) }) else { return nil }
        return FrameExtents(left: Int(values[0]), right: Int(values[1]), top: Int(values[2]), bottom: Int(values[3]))
    }

    /// The coordinates the X protocol can express: positions are 16-bit signed, sizes 16-bit.
    public static let coordinateRange = -32768...32767

    /// A rectangle from a server's numbers, or nil when a side or an edge falls outside the
    /// protocol's 16-bit coordinates (a size of 0 is kept: an empty window is not an error).
    public static func rect(x: Int64, y: Int64, width: Int64, height: Int64) -> Rect? {
        let range = Int64(coordinateRange.lowerBound)...Int64(coordinateRange.upperBound)
        guard range.contains(x), range.contains(y), (0...range.upperBound).contains(width),
              (0...range.upperBound).contains(height) else { return nil }
        // Edges of in-range values add up within Int64; a window may reach past 32767 on screen.
        guard x + width <= 2 * range.upperBound, y + height <= 2 * range.upperBound else { return nil }
        return Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
    }

    /// The frame around a client area (`frame`) with decorations `extents`, or nil when the sum
    /// leaves the protocol's coordinates.
    public static func outerFrame(_ frame: Rect, extents: FrameExtents) -> Rect? {
        rect(x: Int64(frame.x) - Int64(extents.left), y: Int64(frame.y) - Int64(extents.top),
             width: Int64(frame.width) + Int64(extents.left) + Int64(extents.right),
             height: Int64(frame.height) + Int64(extents.top) + Int64(extents.bottom))
    }

    /// Where a window's own pixels are: its outer frame within its top-level window on the
    /// root (`topLevel`, border included), when that is known. Decorations claimed past the
    /// real frame (any client can set `_NET_FRAME_EXTENTS`) hide nothing under them.
    public static func opaqueArea(_ outerFrame: Rect, within topLevel: Rect?) -> Rect {
        guard let topLevel else { return outerFrame }
        return outerFrame.intersection(topLevel)
    }

    /// The most `_NET_WM_WINDOW_TYPE` atoms read of a window.
    public static let maximumWindowTypes = 16

    /// `_NET_WM_WINDOW_TYPE`: the types of `known` that the first `maximumWindowTypes` atoms
    /// name, in order, without repeats; other atoms (a toolkit's own types) are skipped.
    public static func windowTypes(_ atoms: [UInt32], known: [UInt32: WindowType]) -> [WindowType] {
        var types: [WindowType] = []
        for atom in atoms.prefix(maximumWindowTypes) {
            if let type = known[atom], !types.contains(type) { types.append(type) }
        }
        return types
    }

    /// `_NET_WM_WINDOW_OPACITY`: whether the window is fully opaque. A missing or empty
    /// property is; any value below 0xffffffff makes the window translucent under a compositor.
    public static func isFullyOpaque(opacity values: [UInt32]?) -> Bool {
        guard let first = values?.first else { return true }
        return first == UInt32.max
    }

    /// `_SHOTGUARD_PROTECT`: the window asks to be covered when its first value is 1 (any
    /// other value, or another format, asks nothing).
    public static func requestsProtection(_ values: [UInt32]?) -> Bool {
        values?.first == 1
    }

    /// `UTF8_STRING` text (`_NET_WM_NAME`): up to the first NUL and at most `maximumTextBytes`
    /// (cut between characters), with each invalid sequence replaced by U+FFFD.
    public static func utf8Text(_ bytes: some Collection<UInt8>) -> String {
        var text = String(decoding: bytes.prefix { $0 != 0 }.prefix(maximumTextBytes), as: UTF8.self)
        // A character cut at the limit decodes as U+FFFD, which may be longer than its bytes.
        while text.utf8.count > maximumTextBytes { text.removeLast() }
        return text
    }

    /// `STRING` text (ICCCM: ISO 8859-1): up to the first NUL and `maximumTextBytes`.
    public static func latin1Text(_ bytes: some Collection<UInt8>) -> String {
        String(String.UnicodeScalarView(bytes.prefix { $0 != 0 }.prefix(maximumTextBytes).map { Unicode.Scalar($0) }))
    }

    /// `WM_CLASS`: the instance and the class, each ended by a NUL (ICCCM). Read as UTF-8, as
    /// toolkits write it (ICCCM says Latin-1, but names are ASCII in practice). A missing half
    /// is empty.
    public static func wmClass(_ bytes: [UInt8]) -> (instance: String, className: String) {
        let parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        let instance = parts.first.map { utf8Text($0) } ?? ""
        let className = parts.count > 1 ? utf8Text(parts[1]) : ""
        return (instance, className)
    }
}
