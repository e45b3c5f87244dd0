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

    /// `segmentRows`: a segment of that many rows of the screen's width rather than the whole
    /// screen's, for a process that makes one ring capture (`withRingCapture`): the server
    /// faults in a fresh segment's pages as it copies into them, which costs more than the copy,
    /// and a ring is faulted in once and reused by every strip after.
    public init(display: Display, allowSharedMemory: Bool = true, segmentRows: Int? = nil) {
        self.display = display
        let size = display.size
        let rows = min(size.height, max(1, segmentRows ?? size.height))
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
        // Xlib allocates an image's data as its rows, bytes_per_line apart, and keeps no other length.
        let byteCount = Int(captured.pointee.bytes_per_line).multipliedReportingOverflow(by: Int(captured.pointee.height))
        guard !byteCount.overflow else { throw X11Error(.capture, "the X server returned an image of impossible size") }
        return body(try Self.rows(of: captured, byteCount: byteCount.partialValue), area)
    }

    /// Grabs a capture's strips into a ring: called once, with what to call before each strip
    /// (with the end of its rows; it returns once the rows whose place they take are read no
    /// more, or false to stop) and after it (with its rows); returns nil when every strip is
    /// in, or the error that stopped the grab.
    public typealias RingGrab = (_ reserve: (Int) -> Bool, _ arrived: (Range<Int>) -> Void) -> X11Error?

    /// Grabs `rect` (clipped to the screen) in horizontal strips of `stripRows` through a ring
    /// of `ringRows` rows in the shared segment (a multiple of `stripRows`: `ring(forHeight:)`),
    /// each strip taking the place of rows already worked on, so the frame is never whole in
    /// memory and the server faults in only the ring's pages. `body` gets the ring's rows before
    /// any pixel is in (row y of the capture at ring row y % `ringRows`), the rectangle they
    /// show, and the `RingGrab` that fills them, which it must call once. Nil, without calling
    /// `body`, when no shared segment serves this display or the ring does not fit in it (then
    /// use `withCapture`). The rows are valid only inside `body`.
    public func withRingCapture<T>(_ rect: Rect, stripRows: Int, ringRows: Int,
                                   _ body: (PixelRows, Rect, RingGrab) -> T) throws(X11Error) -> T? {
        let area = try onScreen(rect).area
        let ring = min(ringRows, area.height)
        guard let shared, stripRows > 0, ringRows % stripRows == 0, shared.fits(width: area.width, height: ring) else {
            return nil
        }
        let box = (x: area.x, y: area.y, width: area.width, height: area.height)
        let rows = try shared.rows(width: area.width, height: ring)
        let grab: RingGrab = { reserve, arrived in
            do throws(X11Error) {
                let complete = try shared.grabRing(box, stripRows: stripRows, ringRows: ring, reserve: reserve, arrived: arrived)
                return complete ? nil : X11Error(.capture, "the capture was stopped before its last strip")
            } catch {
                if self.display.isLost { return self.lost() }
                // The server refused the segment: later captures use XGetImage.
                self.fallBack("the X server refused the MIT-SHM segment (\(error.message))")
                return error
            }
        }
        return body(rows, area, grab)
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

    /// The rows of a strip, and of the ring of strips, through which a capture of `height` rows
    /// is grabbed when the ring must hold `besides` rows more than a strip (the encoder's band
    /// and the row above it, still being read while the next strip comes in): strips of about a
    /// 32nd of the height (each request costs a round trip, and the encoder's first band waits
    /// for the first strip), a ring of three or more of them (the encoder works on one while the
    /// server copies the next).
    public static func ring(forHeight height: Int, besides: Int) -> (strip: Int, ring: Int) {
        let strip = max(16, (height + 31) / 32)
        let strips = max(3, (strip + besides + strip - 1) / strip)
        return (strip, strip * strips)
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

    /// The rows of a 32-bit little-endian ZPixmap (B,G,R,X in memory; rows may be padded) whose
    /// data holds `byteCount` bytes.
    static func rows(of image: UnsafeMutablePointer<XImage>, byteCount: Int) throws(X11Error) -> PixelRows {
        let x = image.pointee
        guard x.bits_per_pixel == 32, x.byte_order == LSBFirst, x.red_mask == 0xFF0000, x.blue_mask == 0xFF else {
            throw X11Error(.unsupported, "unsupported pixel format (depth \(x.depth), \(x.bits_per_pixel) bits per pixel); "
                + "shotguard needs a 24- or 32-bit TrueColor display")
        }
        let width = Int(x.width), height = Int(x.height), stride = Int(x.bytes_per_line)
        guard let data = x.data, width > 0, height > 0, stride >= width * 4 else {
            throw X11Error(.capture, "the X server returned no pixels")
        }
        do throws(ImagingError) {
            return try PixelRows(UnsafeMutableRawBufferPointer(start: UnsafeMutableRawPointer(data), count: byteCount),
                                 width: width, height: height, bytesPerRow: stride)
        } catch {
            throw X11Error(.capture, "the X server's image does not hold its rows: \(error.message)")
        }
    }
}
