// Where on the screen a read or a watch is, with what the sentinel learnt of copies into pixmaps.
import ShotguardImaging

/// What a read or a watch covers of the screen.
enum ScreenPlacement: Equatable {
    /// This rectangle of the root.
    case area(Rect)
    /// Pixels of the screen the sentinel cannot place (a pixmap of the reader's own it filled
    /// before its copies were recorded): every protected area counts.
    case unknown
    /// A window wholly past the screen's edge (dwm hides another tag's windows so), at this
    /// rectangle of the root: no pixel the screen shows, but the window's own, which a reader
    /// of it (a share of that window alone) takes whole.
    case pastTheEdge(Rect)
    /// No pixel of the screen: another client's pixmap (a window manager reading an icon), or a
    /// window embedded in one of the reader's own (a tray reading its icons).
    case notScreen

    /// Where it is on the root (past the screen's edge for `pastTheEdge`); nil when unknown.
    var rect: Rect? {
        switch self {
        case .area(let rect), .pastTheEdge(let rect): rect
        case .unknown, .notScreen: nil
        }
    }

    /// `rect` of the root: its part on `screen`, or where it lies when it is wholly past the edge.
    static func of(_ rect: Rect, on screen: Rect) -> ScreenPlacement {
        if rect.isEmpty { return .notScreen }
        let shown = rect.intersection(screen)
        return shown.isEmpty ? .pastTheEdge(rect) : .area(shown)
    }
}

/// Places reads and watches on the root with the sentinel's connection, and remembers which
/// pixmaps hold a copy of the screen (so that a later read of such a pixmap is placed where its
/// pixels came from). Both tables are bounded and forget a client's entries when it ends.
final class ReadPlacer {
    private let display: Display
    /// Pixmaps (and windows) a copy of the screen went to: the part of it that holds the copy,
    /// and the offset from its coordinates to the root's.
    private var copies: [UInt: (rect: Rect, dx: Int, dy: Int)] = [:]
    private var copyOrder: [UInt] = []
    /// Windows of other clients, by reader: whether each is embedded in one of the reader's own.
    private var embedded: [UInt32: [UInt32: Bool]] = [:]
    private let mask: UInt32

    static let limit = 1024
    /// The root's rectangle, asked once and again after the root changed size: a screen share
    /// reads the root 30 times a second, and a round trip for each was a third of its cost.
    private var screen: Rect?

    init(display: Display) {
        self.display = display
        mask = display.clientBase(ofResource: 0x1FFF_FFFF)
    }

    /// Where `read` took its pixels; for a copy, the pixmap it filled now holds them.
    func place(_ read: ScreenRead) -> ScreenPlacement {
        let placement = placeSource(read)
        if let destination = read.destination {
            if let rect = placement.rect, let offset = sourceOffset(read) {
                // A source point p lands at p - area.origin + destination in the copy, and at
                // p + offset on the root.
                remember(destination.drawable, rect: rect.offsetBy(dx: -(offset.x + read.area.x - destination.x),
                                                                   dy: -(offset.y + read.area.y - destination.y)),
                         dx: offset.x + read.area.x - destination.x, dy: offset.y + read.area.y - destination.y)
            } else {
                forget(destination.drawable)
            }
        }
        return placement
    }

    /// What `watch` watches: the whole screen for the root, a window's rectangle for a window.
    func place(_ watch: ScreenWatch) -> ScreenPlacement {
        if watch.drawable == UInt(display.root) { return .area(screenRect) }
        guard let window = UInt32(exactly: watch.drawable), !isEmbedded(window, in: watch.client),
              let place = display.windowOnRoot(window) else { return .notScreen }
        return .of(place.outer, on: place.screen)
    }

    /// The root changed size (RandR): its rectangle is asked again at the next read.
    func screenChanged() { screen = nil }

    private var screenRect: Rect {
        if let screen { return screen }
        let asked = display.screenRect
        screen = asked
        return asked
    }

    func forgetClient(_ client: UInt32) {
        embedded[client] = nil
        copies = copies.filter { UInt32(truncatingIfNeeded: $0.key) & mask != client }
        copyOrder = copyOrder.filter { copies[$0] != nil }
    }

    private func placeSource(_ read: ScreenRead) -> ScreenPlacement {
        if read.drawable == UInt(display.root) { return .area(read.area.intersection(screenRect)) }
        if read.pixmapWindow != nil {
            return display.windowPlacement(of: read).map { .of($0.area, on: $0.screen) } ?? .notScreen
        }
        if let copy = copies[read.drawable] {
            let part = read.area.intersection(copy.rect)
            return .of(part.offsetBy(dx: copy.dx, dy: copy.dy), on: screenRect)
        }
        guard let drawable = UInt32(exactly: read.drawable) else { return .notScreen }
        if read.readsForeignDrawable, isEmbedded(drawable, in: read.client) { return .notScreen }
        if let placed = display.windowPlacement(of: read) {
            let placement = ScreenPlacement.of(placed.area, on: placed.screen)
            // A window of the reader's own past the edge may hold a copy of the screen made
            // before its copies were recorded, as a pixmap of its own may.
            if case .pastTheEdge = placement, !read.readsForeignDrawable { return .unknown }
            return placement
        }
        // Not a window on the screen: a pixmap. Another client's holds no screen the sentinel knows of.
        return read.readsForeignDrawable ? .notScreen : .unknown
    }

    /// The offset from the read drawable's coordinates to the root's.
    private func sourceOffset(_ read: ScreenRead) -> (x: Int, y: Int)? {
        if read.drawable == UInt(display.root) { return (0, 0) }
        if let copy = copies[read.drawable] { return (copy.dx, copy.dy) }
        if let window = read.pixmapWindow.flatMap(UInt32.init(exactly:)), let place = display.windowOnRoot(window) {
            return (place.outer.x, place.outer.y)
        }
        guard let window = UInt32(exactly: read.drawable), let place = display.windowOnRoot(window) else { return nil }
        return place.origin
    }

    /// Whether `window` (another client's) sits in a window of `client`'s own: an icon a tray
    /// embedded (XEmbed), which a tray reads to draw. Asked once per window and reader.
    private func isEmbedded(_ window: UInt32, in client: UInt32) -> Bool {
        if let known = embedded[client]?[window] { return known }
        let answer = display.parent(of: window).map { $0 & mask == client && $0 != 0 } ?? false
        var known = embedded[client] ?? [:]
        if known.count < Self.limit { known[window] = answer }
        embedded[client] = known
        return answer
    }

    private func remember(_ drawable: UInt, rect: Rect, dx: Int, dy: Int) {
        if copies.updateValue((rect, dx, dy), forKey: drawable) == nil { copyOrder.append(drawable) }
        while copies.count > Self.limit, !copyOrder.isEmpty { copies[copyOrder.removeFirst()] = nil }
        if copyOrder.count > 2 * Self.limit { copyOrder = copyOrder.filter { copies[$0] != nil } }
    }

    private func forget(_ drawable: UInt) {
        copies[drawable] = nil
    }
}
