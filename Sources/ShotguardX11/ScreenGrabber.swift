// Captures what the user sees: a rectangle of the root window, by MIT-SHM or XGetImage.
import CX11
import ShotguardImaging

/// Grabs rectangles of the screen. Uses one MIT-SHM segment for all grabs where the server
/// allows it, and `XGetImage` otherwise (remote displays, `--no-shm`).
public final class ScreenGrabber {
    public enum Method: String, Sendable { case sharedMemory = "MIT-SHM", getImage = "XGetImage" }

    private let display: Display
    private var shared: SharedMemoryImage?
    public private(set) var method: Method

    public init(display: Display, allowSharedMemory: Bool = true) {
        self.display = display
        let size = display.size
        shared = allowSharedMemory ? SharedMemoryImage(display: display, width: size.width, height: size.height) : nil
        method = shared == nil ? .getImage : .sharedMemory
    }

    /// The pixels of `rect` on screen, clipped to the screen. Throws when nothing of it is on
    /// screen or the server refuses.
    public func capture(_ rect: Rect) throws(X11Error) -> (image: PixelBuffer, rect: Rect) {
        let size = display.size
        let screen = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let area = rect.intersection(screen)
        guard !area.isEmpty else {
            throw X11Error(.capture, "the rectangle \(rect) is entirely off the \(screen.width)x\(screen.height) screen")
        }
        let box = (x: area.x, y: area.y, width: area.width, height: area.height)
        if let current = shared, !current.fits(width: box.width, height: box.height) {
            // The screen grew (a monitor was added): a segment of the new size replaces the old.
            shared = nil
            shared = SharedMemoryImage(display: display, width: size.width, height: size.height)
            method = shared == nil ? .getImage : .sharedMemory
        }
        if let shared {
            if let image = try? shared.grab(box, { (image) throws(X11Error) in try Self.pixels(of: image) }) {
                return (image, area)
            }
            if display.isLost { throw lost() }
            // The server refused the segment (it can after an attach succeeded): stop using it.
            self.shared = nil
            method = .getImage
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
        return (try Self.pixels(of: captured), area)
    }

    /// The whole screen.
    public func captureScreen() throws(X11Error) -> PixelBuffer {
        try capture(Rect(x: 0, y: 0, width: Int(Int32.max), height: Int(Int32.max))).image
    }

    private func lost() -> X11Error {
        X11Error(.connectionLost, "lost the connection to X display '\(display.name)'")
    }

    /// Copies a 32-bit ZPixmap into a pixel buffer, row by row (rows may be padded), setting
    /// the fourth byte (0 from a depth-24 server) to 0xFF on the way: captured pixels then
    /// equal decoded opaque PNG pixels, so alignment compares them as plain bytes with no
    /// second pass.
    static func pixels(of image: UnsafeMutablePointer<XImage>) throws(X11Error) -> PixelBuffer {
        let x = image.pointee
        guard x.bits_per_pixel == 32, x.byte_order == LSBFirst, x.red_mask == 0xFF0000, x.blue_mask == 0xFF else {
            throw X11Error(.unsupported, "unsupported pixel format (depth \(x.depth), \(x.bits_per_pixel) bits per pixel); "
                + "shotguard needs a 24- or 32-bit TrueColor display")
        }
        let width = Int(x.width), height = Int(x.height), stride = Int(x.bytes_per_line)
        guard let data = x.data else { throw X11Error(.capture, "the X server returned no pixels") }
        let pixels = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, count in
            let source = UnsafeRawPointer(data)
            for row in 0..<height {
                let line = source + row * stride
                for column in 0..<width {
                    let pixel = line.loadUnaligned(fromByteOffset: column * 4, as: UInt32.self)
                    (buffer.baseAddress! + row * width + column).initialize(to: pixel | 0xFF00_0000)
                }
            }
            count = width * height
        }
        return PixelBuffer(width: width, height: height, pixels: pixels, hasAlpha: false)
    }
}
