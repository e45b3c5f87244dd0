// What is left of a rectangle once others are cut out of it: the visible part of a cover.
import ShotguardImaging

extension Rect {
    /// The parts of this rectangle outside `hole`, as at most four disjoint rectangles: the
    /// full-width bands above and below the hole, then the parts left and right of it between
    /// them. `[self]` when they do not meet; `[]` when the hole covers it all.
    public func subtracting(_ hole: Rect) -> [Rect] {
        let cut = intersection(hole)
        guard !cut.isEmpty else { return isEmpty ? [] : [self] }
        let pieces = [
            Rect(x: x, y: y, width: width, height: cut.y - y),
            Rect(x: x, y: cut.maxY, width: width, height: maxY - cut.maxY),
            Rect(x: x, y: cut.y, width: cut.x - x, height: cut.height),
            Rect(x: cut.maxX, y: cut.y, width: maxX - cut.maxX, height: cut.height),
        ]
        return pieces.filter { !$0.isEmpty }
    }
}

/// Disjoint rectangles that together make one area: a cover with the windows above it and the
/// allowed areas cut out. The number of rectangles is bounded by `limit`: a cut that would
/// leave more is not made, so the area only ever errs on covering more than is visible.
public struct DisjointRects: Hashable, Sendable {
    /// The rectangles, disjoint and non-empty.
    public private(set) var rects: [Rect]
    /// The most rectangles this area may hold.
    public let limit: Int

    /// How many rectangles one cover may be split into. Fifty windows stacked over a cover
    /// leave far fewer in practice; a shield cover is one override-redirect window each.
    public static let defaultLimit = 32

    /// The area of `rect` (nothing when it is empty).
    public init(_ rect: Rect, limit: Int = DisjointRects.defaultLimit) {
        rects = rect.isEmpty ? [] : [rect]
        self.limit = max(1, limit)
    }

    public var isEmpty: Bool { rects.isEmpty }

    /// The number of pixels in the area.
    public var area: Int { rects.reduce(0) { $0 + $1.area } }

    /// Cuts `hole` out of the area. Returns false, leaving the area as it was, when the cut
    /// would split it into more than `limit` rectangles.
    @discardableResult
    public mutating func subtract(_ hole: Rect) -> Bool {
        guard rects.contains(where: { !$0.intersection(hole).isEmpty }) else { return true }
        let cut = Self.coalesced(rects.flatMap { $0.subtracting(hole) })
        guard cut.count <= limit else { return false }
        rects = cut
        return true
    }

    /// The parts of the area inside `rect`.
    public func intersections(with rect: Rect) -> [Rect] {
        rects.map { $0.intersection(rect) }.filter { !$0.isEmpty }
    }

    /// `rects` with neighbours that share a whole edge joined, in two sorted passes (columns,
    /// then rows), so repeated cuts do not leave slivers that one rectangle could hold.
    static func coalesced(_ rects: [Rect]) -> [Rect] {
        var columns = rects.sorted { ($0.x, $0.width, $0.y) < ($1.x, $1.width, $1.y) }
        columns = joinRuns(columns) { previous, next in
            previous.x == next.x && previous.width == next.width && previous.maxY == next.y
                ? Rect(x: previous.x, y: previous.y, width: previous.width, height: previous.height + next.height) : nil
        }
        let rows = columns.sorted { ($0.y, $0.height, $0.x) < ($1.y, $1.height, $1.x) }
        return joinRuns(rows) { previous, next in
            previous.y == next.y && previous.height == next.height && previous.maxX == next.x
                ? Rect(x: previous.x, y: previous.y, width: previous.width + next.width, height: previous.height) : nil
        }
    }

    private static func joinRuns(_ sorted: [Rect], _ join: (Rect, Rect) -> Rect?) -> [Rect] {
        var joined: [Rect] = []
        for rect in sorted {
            if let last = joined.last, let both = join(last, rect) {
                joined[joined.count - 1] = both
            } else {
                joined.append(rect)
            }
        }
        return joined
    }
}
