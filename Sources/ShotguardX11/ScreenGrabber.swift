// Captures what the user sees: a rectangle of the root window, by MIT-SHM or XGetImage.
import CX11
import Glibc
import ShotguardImaging

/// Grabs rectangles of the screen. Uses one MIT-SHM segment for all grabs where the server
/// allows it, and `XGetImage` otherwise (remote displays, `--no-shm`).
public final class ScreenGrabber {
    public enum Method: String, Sendable { case sharedMemory = "MIT-SHM", getImage = "XGetImage" }

    private let display: Display
    private var shared: SharedMemoryImage?
    public private(set) var method: Method
    /// Why the grabber stopped using MIT-SHM, until `takeFallbackNotice` hands it out.
    private var fallbackNotice: String?

    /// `stripSegment`: a segment of one strip's rows (`stripRows(forHeight:)`) rather than the
    /// whole screen's, for a process that makes one strip capture (`withStripCapture`): the
    /// server faults in a fresh segment's pages as it copies into them, which costs more than
    /// the copy, and a strip-sized segment is faulted in once and reused by every strip.
    public init(display: Display, allowSharedMemory: Bool = true, stripSegment: Bool = false) {
        self.display = display
        let size = display.size
        let rows = stripSegment ? Self.stripRows(forHeight: size.height) : size.height
        shared = allowSharedMemory ? SharedMemoryImage(display: display, width: size.width, height: rows) : nil
        method = shared == nil ? .getImage : .sharedMemory
    }

    /// The pixels of `rect` on screen, clipped to the screen. Throws when nothing of it is on
    /// screen or the server refuses.
    public func capture(_ rect: Rect) throws(X11Error) -> (image: PixelBuffer, rect: Rect) {
        try withCapture(rect) { rows, area in (PixelBuffer(copying: rows), area) }
    }

    /// Grabs `rect` of the screen (clipped to it) and hands `body` the grabbed rows where the
    /// X image holds them (the shared segment, or XGetImage's buffer) with the rectangle they
    /// show: no copy of the frame. The rows are valid only inside `body`, which may change them.
    public func withCapture<T>(_ rect: Rect, _ body: (PixelRows, Rect) -> T) throws(X11Error) -> T {
        let (area, size) = try onScreen(rect)
        let box = (x: area.x, y: area.y, width: area.width, height: area.height)
        if let current = shared, !current.fits(width: box.width, height: box.height) {
            // The screen grew (a monitor was added), or the segment holds one strip: a segment
            // of the screen's size replaces it.
            shared = nil
            shared = SharedMemoryImage(display: display, width: size.width, height: size.height)
            if shared == nil { fallBack("no MIT-SHM segment of \(size.width)x\(size.height) could be made") }
        }
        if let shared {
            do throws(X11Error) {
                let rows = try shared.grab(box)
                // The segment keeps the pixels until the next grab, which only this object makes.
                return body(rows, area)
            } catch {
                if display.isLost { throw lost() }
                // The server refused the segment (it can after an attach succeeded): stop using it.
                fallBack("the X server refused the MIT-SHM segment (\(error.message))")
            }
        }
        let (captured, error) = display.trap {
            XGetImage(display.handle, display.root, Int32(box.x), Int32(box.y), UInt32(box.width), UInt32(box.height), ~0, ZPixmap)
        }
        guard let captured, error == nil else {
            if display.isLost { throw lost() }
            guard let error else { throw X11Error(.capture, "XGetImage failed: the X server sent no image") }
            throw X11Error(error, doing: "XGetImage failed")
        }
        defer { _ = captured.pointee.f.destroy_image(captured) }
        return body(try Self.rows(of: captured), area)
    }

    /// Fills rows in strips: called once, with what to call after each strip (the rows in so
    /// far); returns nil when every strip is in, or the error that stopped the grab.
    public typealias StripGrab = (_ arrived: (Int) -> Void) -> X11Error?

    /// Frees the rows of a strip capture before `body` returns, on a thread of its own, for a
    /// caller that reads them no more but has more to do (a capture syncing its file to disk).
    /// Nothing may read the rows after.
    public typealias ReleaseRows = () -> Void

    /// Grabs `rect` (clipped to the screen) in horizontal strips, each through the shared
    /// segment into memory of its own, so the rows can be worked on while the server still
    /// copies the rest: `body` gets the rows before any pixel is in, the rectangle they show,
    /// the `StripGrab` that fills them, which it must call once, and the `ReleaseRows` that frees
    /// them early, which it may call once it reads them no more. Nil, without calling
    /// `body`, when no shared segment serves this display, a strip does not fit in it (the
    /// screen grew since, or `stripRows` is taller than its strip) or there is no memory for
    /// the frame: then use `withCapture`. The rows are valid only inside `body`.
    public func withStripCapture<T>(_ rect: Rect, stripRows: Int = 0,
                                    _ body: (PixelRows, Rect, StripGrab, ReleaseRows) -> T) throws(X11Error) -> T? {
        let area = try onScreen(rect).area
        let strip = min(stripRows > 0 ? stripRows : Self.stripRows(forHeight: area.height), area.height)
        guard let shared, shared.fits(width: area.width, height: strip) else { return nil }
        let box = (x: area.x, y: area.y, width: area.width, height: area.height)
        // The format is checked on the segment; the strips are copied out to rows of our own.
        let rowBytes = try shared.rows(width: area.width, height: strip).bytesPerRow
        return try FrameMemory.with(size: rowBytes * area.height) { (memory, release) throws(X11Error) in
            let rows = PixelRows(base: memory, width: area.width, height: area.height, bytesPerRow: rowBytes)
            let grab: StripGrab = { arrived in
                do throws(X11Error) {
                    try shared.grabStrips(box, stripRows: strip, into: memory, arrived: arrived)
                    return nil
                } catch {
                    if self.display.isLost { return self.lost() }
                    // The server refused the segment: later captures use XGetImage.
                    self.fallBack("the X server refused the MIT-SHM segment (\(error.message))")
                    return error
                }
            }
            // Both closures are only called inside `body`.
            return withoutActuallyEscaping(release) { release in body(rows, area, grab, release) }
        }
    }

    /// Why this grabber stopped using MIT-SHM for good, the first time it is asked after that
    /// happened, and nil otherwise: a caller that logs it says so once, not at every capture. A
    /// grabber that never had a segment (a remote display, `--no-shm`) has nothing to say.
    public func takeFallbackNotice() -> String? {
        defer { fallbackNotice = nil }
        return fallbackNotice
    }

    /// Drops the segment for good; later grabs use XGetImage.
    private func fallBack(_ reason: String) {
        shared = nil
        if method == .sharedMemory { fallbackNotice = reason + "; capturing with XGetImage from now on" }
        method = .getImage
    }

    /// Rows of a strip for a grab of `height` rows: about 16 strips, as each request costs a
    /// round trip and the encoder's first band waits for the first strip.
    public static func stripRows(forHeight height: Int) -> Int {
        max(16, (height + 15) / 16)
    }

    /// The part of `rect` on the screen, and the screen's size now; throws when none of it is.
    private func onScreen(_ rect: Rect) throws(X11Error) -> (area: Rect, size: (width: Int, height: Int)) {
        let size = display.size
        let area = rect.intersection(Rect(x: 0, y: 0, width: size.width, height: size.height))
        guard !area.isEmpty else {
            throw X11Error(.capture, "the rectangle \(rect) is entirely off the \(size.width)x\(size.height) screen")
        }
        return (area, size)
    }

    /// The whole screen.
    public func captureScreen() throws(X11Error) -> PixelBuffer {
        try capture(Rect(x: 0, y: 0, width: Int(Int32.max), height: Int(Int32.max))).image
    }

    private func lost() -> X11Error {
        X11Error(.connectionLost, "lost the connection to X display '\(display.name)'")
    }

    /// The rows of a 32-bit little-endian ZPixmap (B,G,R,X in memory; rows may be padded).
    static func rows(of image: UnsafeMutablePointer<XImage>) throws(X11Error) -> PixelRows {
        let x = image.pointee
        guard x.bits_per_pixel == 32, x.byte_order == LSBFirst, x.red_mask == 0xFF0000, x.blue_mask == 0xFF else {
            throw X11Error(.unsupported, "unsupported pixel format (depth \(x.depth), \(x.bits_per_pixel) bits per pixel); "
                + "shotguard needs a 24- or 32-bit TrueColor display")
        }
        let width = Int(x.width), height = Int(x.height), stride = Int(x.bytes_per_line)
        guard let data = x.data, width > 0, height > 0, stride >= width * 4 else {
            throw X11Error(.capture, "the X server returned no pixels")
        }
        return PixelRows(base: UnsafeMutableRawPointer(data), width: width, height: height, bytesPerRow: stride)
    }
}
