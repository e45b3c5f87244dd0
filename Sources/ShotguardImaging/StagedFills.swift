// Redaction of rows that arrive top to bottom, so an encoder can start before the last one.

/// The fills for rows that arrive from the top (a capture in strips, a decode): each fill is
/// applied once every row it covers is in (a mosaic reads its own pixels), and rows count as
/// final only up to the first pending fill, so no encoder ever reads a pixel before its cover.
public struct StagedFills {
    private let rows: PixelRows
    /// Fills not yet applied, clipped to the rows, in the order given: where two overlap the
    /// later one is on top, as when they are applied all at once.
    private var pending: [(rect: Rect, fill: Fill)]

    /// `fills` in the rows' coordinates, in the order to apply them; parts outside the rows are
    /// dropped.
    public init(_ rows: PixelRows, fills: [(rect: Rect, fill: Fill)]) {
        self.rows = rows
        pending = fills.map { (rect: $0.rect.intersection(rows.bounds), fill: $0.fill) }.filter { !$0.rect.isEmpty }
    }

    /// Rows 0..<arrived are in: applies every fill they complete that no earlier pending fill
    /// overlaps, and returns how many rows from the top are final (no fill to come touches them).
    public mutating func arrived(_ arrived: Int) -> Int {
        var waiting: [(rect: Rect, fill: Fill)] = []
        for item in pending {
            if item.rect.maxY <= arrived, !waiting.contains(where: { !$0.rect.intersection(item.rect).isEmpty }) {
                rows.redact(item.rect, with: item.fill)
            } else {
                waiting.append(item)
            }
        }
        pending = waiting
        return min(arrived, pending.map(\.rect.y).min() ?? Int.max)
    }
}
