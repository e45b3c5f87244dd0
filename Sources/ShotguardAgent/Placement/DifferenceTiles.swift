// Where an image differs from the screen, tile by tile: separate areas stay separate.
import ShotguardImaging

/// A grid of `size`-pixel tiles over an image, each marked when a pixel in it differs from the
/// screen. One bounding box over all differences would join an animation in one corner and a
/// clock in the other into most of the screen; the tiles keep them apart, so each area can be
/// judged against the rules on its own.
struct DifferenceTiles: Sendable, Equatable {
    static let size = 32

    let columns: Int
    let rows: Int
    private var marked: [Bool]
    private(set) var count = 0

    init(width: Int, height: Int) {
        columns = (width + Self.size - 1) / Self.size
        rows = (height + Self.size - 1) / Self.size
        marked = [Bool](repeating: false, count: columns * rows)
    }

    /// Marks the tile that holds pixel (x, y).
    mutating func mark(x: Int, y: Int) {
        let index = (y / Self.size) * columns + x / Self.size
        guard index >= 0, index < marked.count, !marked[index] else { return }
        marked[index] = true
        count += 1
    }

    /// Each group of touching marked tiles (sides or corners) as its bounding box in pixels,
    /// clipped to `width`×`height`.
    func areas(width: Int, height: Int) -> [Rect] {
        var seen = [Bool](repeating: false, count: marked.count)
        var areas: [Rect] = []
        for start in marked.indices where marked[start] && !seen[start] {
            var stack = [start]
            seen[start] = true
            var minColumn = columns, minRow = rows, maxColumn = 0, maxRow = 0
            while let index = stack.popLast() {
                let column = index % columns, row = index / columns
                minColumn = min(minColumn, column); maxColumn = max(maxColumn, column)
                minRow = min(minRow, row); maxRow = max(maxRow, row)
                for dy in -1...1 {
                    for dx in -1...1 {
                        let nextColumn = column + dx, nextRow = row + dy
                        guard nextColumn >= 0, nextColumn < columns, nextRow >= 0, nextRow < rows else { continue }
                        let next = nextRow * columns + nextColumn
                        if marked[next], !seen[next] {
                            seen[next] = true
                            stack.append(next)
                        }
                    }
                }
            }
            let rect = Rect(x: minColumn * Self.size, y: minRow * Self.size, width: (maxColumn - minColumn + 1) * Self.size,
                            height: (maxRow - minRow + 1) * Self.size)
            areas.append(rect.intersection(Rect(x: 0, y: 0, width: width, height: height)))
        }
        return areas
    }

    /// The marked area in pixels (whole tiles).
    var area: Int { count * Self.size * Self.size }
}
