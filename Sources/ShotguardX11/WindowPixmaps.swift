// The pixmaps clients named for windows' contents (Composite's NameWindowPixmap), bounded; and
// RENDER's pictures with their drawables, in the same kind of table.

/// Which window each named pixmap shows, so that a read of the pixmap is traced to the window.
/// Any client can name pixmaps without end (a compositor names one on every map and resize),
/// so the map keeps at most `limit` pixmaps and forgets the one named first. A client's pixmaps
/// are forgotten when it disconnects: the server may then give its id range to a new client.
/// A pixmap freed is forgotten when its client's copies are recorded (`CopyRecording`: a
/// client that named another's window is); otherwise a pixmap freed and its id reused by the
/// same client would still be taken for the window. Xlib and XCB hand out ids in increasing
/// order and reuse one only when a client's range runs out.
struct WindowPixmaps {
    let limit: Int
    private var windows: [UInt32: UInt32] = [:]
    /// Pixmaps in the order they were first named; those before `front` are forgotten.
    private var order: [UInt32] = []
    private var front = 0

    init(limit: Int = 4096) {
        self.limit = max(1, limit)
    }

    var count: Int { windows.count }

    /// The window `pixmap` was named for, if it is known.
    func window(of pixmap: UInt32) -> UInt32? { windows[pixmap] }

    mutating func name(_ pixmap: UInt32, window: UInt32) {
        if windows.updateValue(window, forKey: pixmap) == nil { order.append(pixmap) }
        while windows.count > limit, front < order.count {
            windows[order[front]] = nil
            front += 1
        }
        compact()
    }

    mutating func forget(_ pixmap: UInt32) {
        windows[pixmap] = nil
        // Names and frees without end would grow the order with ids no longer named.
        if order.count - front > 2 * limit {
            var seen = Set<UInt32>()
            order = order[front...].filter { windows[$0] != nil && seen.insert($0).inserted }
            front = 0
        }
    }

    /// Forgets every pixmap of the client whose ids are `base` under `mask`.
    mutating func forgetClient(base: UInt32, mask: UInt32) {
        windows = windows.filter { $0.key & mask != base }
        order = order[front...].filter { windows[$0] != nil }
        front = 0
    }

    /// Drops the skipped front of `order` once it is as long as the rest, so the array stays
    /// within twice the limit.
    private mutating func compact() {
        guard front > 0, front >= order.count - front else { return }
        order.removeFirst(front)
        front = 0
    }
}
