// An MIT-SHM segment shared with the X server, reused across captures in one process.
import CX11
import Glibc
import ShotguardImaging

/// An XImage of the root's width in a shared-memory segment, as tall as the screen or as one
/// strip of a capture. The segment is mode 0600 (only this user) and marked for removal right
/// after attaching, so a crash never leaks it.
final class SharedMemoryImage {
    private let display: Display
    private let image: UnsafeMutablePointer<XImage>
    /// On the heap: the XImage keeps a pointer to it (`obdata`) for every later request.
    private let info: UnsafeMutablePointer<XShmSegmentInfo>
    private let capacity: Int

    /// Nil when MIT-SHM is missing or the server refuses the segment (e.g. a remote display).
    init?(display: Display, width: Int, height: Int) {
        guard display.isLocalSocket, XShmQueryExtension(display.handle) != 0 else { return nil }
        let info = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        info.initialize(to: XShmSegmentInfo())
        guard let image = XShmCreateImage(display.handle, display.visual, UInt32(display.depth), ZPixmap, nil,
                                          info, UInt32(width), UInt32(height)) else {
            info.deallocate()
            return nil
        }
        let capacity = Int(image.pointee.bytes_per_line) * height
        info.pointee.shmid = shmget(IPC_PRIVATE, capacity, IPC_CREAT | 0o600)
        let address = info.pointee.shmid >= 0 ? shmat(info.pointee.shmid, nil, 0) : nil
        guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else {
            if info.pointee.shmid >= 0 { shmctl(info.pointee.shmid, IPC_RMID, nil) }
            _ = image.pointee.f.destroy_image(image)
            info.deallocate()
            return nil
        }
        // Marked for removal at once: it lives while attached, and no crash can leak it.
        shmctl(info.pointee.shmid, IPC_RMID, nil)
        info.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
        info.pointee.readOnly = 0
        image.pointee.data = info.pointee.shmaddr
        let (attached, error) = display.trap { XShmAttach(display.handle, info) }
        guard attached != 0, error == nil else {
            shmdt(address)
            image.pointee.data = nil
            _ = image.pointee.f.destroy_image(image)
            info.deallocate()
            return nil
        }
        self.display = display
        self.image = image
        self.info = info
        self.capacity = capacity
    }

    deinit {
        if !display.isLost {
            XShmDetach(display.handle, info)
            display.sync()
        }
        shmdt(info.pointee.shmaddr)
        image.pointee.data = nil
        _ = image.pointee.f.destroy_image(image)
        info.deallocate()
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Whether a grab of this size fits in the segment.
    func fits(width: Int, height: Int) -> Bool {
        width * height * (Int(image.pointee.bits_per_pixel) / 8) <= capacity
    }

    /// Grabs `rect` of the root into the segment in one request: its rows, packed from the
    /// segment's start (the caller checks that they fit).
    func grab(_ rect: (x: Int, y: Int, width: Int, height: Int)) throws(X11Error) -> PixelRows {
        try grabStrips(rect, stripRows: rect.height) { _ in }
        // Maps the grabbed pages into this process in one call (Linux 5.14+; older kernels say
        // EINVAL and the pages fault in one by one as they are read, as before).
        _ = madvise(info.pointee.shmaddr, rect.height * Int(image.pointee.bytes_per_line), MADV_POPULATE_READ)
        return try rows(width: rect.width, height: rect.height)
    }

    /// The segment as rows of `width` x `height` pixels packed from its start, where
    /// `grabStrips` puts them.
    func rows(width: Int, height: Int) throws(X11Error) -> PixelRows {
        image.pointee.width = Int32(width)
        image.pointee.height = Int32(height)
        image.pointee.bytes_per_line = Int32(width * Int(image.pointee.bits_per_pixel) / 8)
        return try ScreenGrabber.rows(of: image)
    }

    /// Grabs `rect` of the root in horizontal strips of `stripRows`, top to bottom, one request
    /// each, and calls `arrived` with the rows that are in after each strip: whoever works on
    /// the rows can start while the server is still copying the rest. All strips share one
    /// error trap; throws when a strip is refused.
    ///
    /// Without `destination` the strips land packed from the segment's start, and their pages
    /// are not mapped here, between two requests: the encoder's workers map their own rows.
    /// With it, every strip lands at the segment's start and is copied to its place in
    /// `destination` (packed rows): a segment of one strip's rows is then enough, and the
    /// server faults its pages in once instead of a whole frame's.
    func grabStrips(_ rect: (x: Int, y: Int, width: Int, height: Int), stripRows: Int,
                    into destination: UnsafeMutableRawPointer? = nil, arrived: (Int) -> Void) throws(X11Error) {
        let bytesPerPixel = Int(image.pointee.bits_per_pixel) / 8
        let rowBytes = rect.width * bytesPerPixel
        guard fits(width: rect.width, height: destination == nil ? rect.height : min(stripRows, rect.height)) else {
            throw X11Error(.capture, "the capture rectangle does not fit in the shared segment")
        }
        image.pointee.width = Int32(rect.width)
        image.pointee.bytes_per_line = Int32(rowBytes)
        // Xlib asks the server for image.data's offset in the segment: each strip lands where
        // its rows belong.
        defer { image.pointee.data = info.pointee.shmaddr }
        let (refused, error) = display.trap { () -> Int? in
            var row = 0
            while row < rect.height {
                let count = min(stripRows, rect.height - row)
                image.pointee.data = info.pointee.shmaddr + (destination == nil ? row * rowBytes : 0)
                image.pointee.height = Int32(count)
                guard XShmGetImage(display.handle, display.root, image, Int32(rect.x), Int32(rect.y + row), ~0) != 0 else {
                    return row
                }
                if let destination {
                    let target = destination + row * rowBytes
                    // Its pages mapped in one call rather than faulted in one by one by the copy
                    // (from the page the strip starts in: madvise takes whole pages).
                    let page = Int(bitPattern: target) & ~(Self.pageSize - 1)
                    let end = Int(bitPattern: target) + count * rowBytes
                    _ = madvise(UnsafeMutableRawPointer(bitPattern: page), end - page, MADV_POPULATE_WRITE)
                    target.copyMemory(from: info.pointee.shmaddr, byteCount: count * rowBytes)
                }
                row += count
                arrived(row)
            }
            return nil
        }
        if let refused {
            throw X11Error(.capture, "XShmGetImage failed at row \(refused): "
                + (error.map { ErrorTrap.name(of: $0.code) } ?? "no image"))
        }
        if let error { throw X11Error(.capture, "XShmGetImage failed: \(ErrorTrap.name(of: error.code))") }
    }
}
