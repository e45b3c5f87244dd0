// Redaction of rows that arrive top to bottom, so an encoder can start before the last one.

/// A rectangle to cover and how, in an image's coordinates; a list of them is applied in order
/// (a later one on top).
public typealias Cover = (rect: Rect, fill: Fill)

/// The fills for rows that arrive from the top (a capture in strips, a decode). A solid fill
/// covers its rows as they arrive (it reads no pixel); a mosaic is applied once every row it
/// covers is in (it reads its own pixels). Rows count as final only up to the first row a
/// pending fill has still to cover, so no encoder ever reads a pixel before its cover.
public struct StagedFills {
    private struct Pending {
        let rect: Rect
        let fill: Fill
        /// The first row of `rect` not covered yet.
        var next: Int
    }

    private let rows: any CoverableRows
    /// Fills not yet wholly applied, clipped to the rows, in the order given: where two overlap
    /// the later one is on top, as when they are applied all at once.
    private var pending: [Pending]

    /// `fills` in the rows' coordinates, in the order to apply them; parts outside the rows are
    /// dropped.
    public init(_ rows: some CoverableRows, fills: [Cover]) {
        self.rows = rows
        pending = fills.map { $0.rect.intersection(rows.bounds) }.enumerated()
            .filter { !$0.element.isEmpty }
            .map { Pending(rect: $0.element, fill: fills[$0.offset].fill, next: $0.element.y) }
    }

    /// Rows 0..<arrived are in: covers what they allow of every fill, and returns how many rows
    /// from the top are final (no fill has anything left to cover in them). A fill covers a
    /// row only once every earlier fill it overlaps has covered that row, so the later one is
    /// on top; a mosaic also waits for the rows it reads to be final.
    public mutating func arrived(_ arrived: Int) -> Int {
        var waiting: [Pending] = []
        for var cover in pending {
            let earlier = waiting.filter { !$0.rect.intersection(cover.rect).isEmpty }.map(\.next).min() ?? Int.max
            let reach = min(arrived, earlier, cover.rect.maxY)
            if case .solid = cover.fill, reach > cover.next {
                rows.redact(Rect(x: cover.rect.x, y: cover.next, width: cover.rect.width, height: reach - cover.next),
                            with: cover.fill)
                cover.next = reach
            } else if reach == cover.rect.maxY, cover.next < reach {
                rows.redact(cover.rect, with: cover.fill)
                cover.next = reach
            }
            if cover.next < cover.rect.maxY { waiting.append(cover) }
        }
        pending = waiting
        return min(arrived, pending.map(\.next).min() ?? Int.max)
    }
}
