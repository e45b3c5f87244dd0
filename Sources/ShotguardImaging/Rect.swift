// Rectangles in pixel coordinates: what a redaction covers, and where an image sits on screen.

/// An axis-aligned rectangle of whole pixels. Width and height are never negative.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }
    public var area: Int { width * height }

    /// The part of this rectangle inside `other`; empty (at this origin) when they do not meet.
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return Rect(x: left, y: top, width: 0, height: 0) }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The smallest rectangle holding both.
    public func union(_ other: Rect) -> Rect {
        let left = min(x, other.x), top = min(y, other.y)
        return Rect(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }

    /// This rectangle moved by (dx, dy).
    public func offsetBy(dx: Int, dy: Int) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }

    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < maxX && py >= y && py < maxY
    }

    /// X geometry syntax, as `xwininfo` and `maim -g` print it: `WxH+X+Y`. A position left of
    /// or above the screen prints as `+-X` (a leading `-` would mean "from the far edge").
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
