// An MIT-SHM segment shared with the X server, reused across captures in one process.
import CX11
import Glibc
import ShotguardImaging

/// An XImage of the root's width in a shared-memory segment, as tall as the screen or as a ring
/// of a capture's strips. The segment is mode 0600 (only this user) and marked for removal right
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

    /// Whether a grab of this size fits in the segment.
    func fits(width: Int, height: Int) -> Bool {
        width * height * (Int(image.pointee.bits_per_pixel) / 8) <= capacity
    }

    /// Grabs `rect` of the root into the segment in one request: its rows, packed from the
    /// segment's start (the caller checks that they fit).
    func grab(_ rect: (x: Int, y: Int, width: Int, height: Int)) throws(X11Error) -> PixelRows {
        try grabRing(rect, stripRows: rect.height, ringRows: rect.height, reserve: { _ in true }, arrived: { _ in })
        // Maps the grabbed pages into this process in one call (Linux 5.14+; older kernels say
        // EINVAL and the pages fault in one by one as they are read, as before).
        _ = madvise(info.pointee.shmaddr, rect.height * Int(image.pointee.bytes_per_line), MADV_POPULATE_READ)
        return try rows(width: rect.width, height: rect.height)
    }

    /// The segment as rows of `width` x `height` pixels packed from its start, where
    /// `grab` and `grabRing` put them.
    func rows(width: Int, height: Int) throws(X11Error) -> PixelRows {
        image.pointee.width = Int32(width)
        image.pointee.height = Int32(height)
        image.pointee.bytes_per_line = Int32(width * Int(image.pointee.bits_per_pixel) / 8)
        return try ScreenGrabber.rows(of: image, byteCount: capacity)
    }

    /// Grabs `rect` of the root in strips of `stripRows` through a ring of `ringRows` rows at the
    /// segment's start (a multiple of `stripRows`, so no strip crosses its end): row y of `rect`
    /// lands at ring row y % `ringRows`. Before each strip, `reserve` is called with the end of
    /// its rows and must return once the rows whose place they take are read no more (false
    /// stops the grab, which then returns false); after it, `arrived` with its rows. The server faults
    /// in the ring's pages once, on its first pass, and every later strip reuses them: a fresh
    /// segment's pages cost the server more than the copy. All strips share one error trap;
    /// throws when a strip is refused.
    @discardableResult
    func grabRing(_ rect: (x: Int, y: Int, width: Int, height: Int), stripRows: Int, ringRows: Int,
                  reserve: (Int) -> Bool, arrived: (Range<Int>) -> Void) throws(X11Error) -> Bool {
        let bytesPerPixel = Int(image.pointee.bits_per_pixel) / 8
        let rowBytes = rect.width * bytesPerPixel
        guard stripRows > 0, ringRows >= min(stripRows, rect.height), ringRows % stripRows == 0 || ringRows >= rect.height,
              fits(width: rect.width, height: min(ringRows, rect.height)) else {
            throw X11Error(.capture, "the capture rectangle does not fit in the shared segment")
        }
        image.pointee.width = Int32(rect.width)
        image.pointee.bytes_per_line = Int32(rowBytes)
        // Xlib asks the server for image.data's offset in the segment: each strip lands where
        // its rows belong.
        defer { image.pointee.data = info.pointee.shmaddr }
        let (outcome, error) = display.trap { () -> (row: Int, stopped: Bool)? in
            var row = 0
            while row < rect.height {
                let count = min(stripRows, rect.height - row)
                guard reserve(row + count) else { return (row, true) }
                image.pointee.data = info.pointee.shmaddr + (row % ringRows) * rowBytes
                image.pointee.height = Int32(count)
                guard XShmGetImage(display.handle, display.root, image, Int32(rect.x), Int32(rect.y + row), ~0) != 0 else {
                    return (row, false)
                }
                arrived(row..<(row + count))
                row += count
            }
            return nil
        }
        if let outcome, !outcome.stopped {
            throw X11Error(.capture, "XShmGetImage failed at row \(outcome.row): "
                + (error.map { ErrorTrap.name(of: $0.code) } ?? "no image"))
        }
        if let error { throw X11Error(.capture, "XShmGetImage failed: \(ErrorTrap.name(of: error.code))") }
        return outcome == nil
    }
}
