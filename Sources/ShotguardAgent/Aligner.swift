// Finds where on the screen an image's pixels came from: the whole screen, a window, a region.
import CShotguardSys
import Glibc
import ShotguardImaging
import ShotguardRegions

/// How an image was placed on the screen.
struct Alignment {
    enum Method: String { case screen, window, search, fallback }

    let method: Method
    /// The image's rectangle in screen coordinates.
    let rect: Rect
    let windowID: UInt?
    /// Whether the pixels were checked against the screen at event time.
    var verified = true
}

/// Places images on the event-time screen. Captures come opaque (fourth byte 0xFF), as decoded
/// opaque PNG pixels are, so rows compare as plain bytes.
enum Aligner {
    /// `image` with every pixel's fourth byte set to 0xFF, for an image with alpha.
    static func opaque(_ image: PixelBuffer) -> PixelBuffer {
        var copy = image
        copy.pixels.withUnsafeMutableBufferPointer { pixels in
            for index in pixels.indices { pixels[index] |= 0xFF00_0000 }
        }
        return copy
    }

    /// Where `image` sits on `root`. A screen-sized image sits at the origin (checked only when
    /// `verify`); one the size of a context window is checked against that window; anything
    /// else is searched for. Nil when it is not found.
    static func align(_ image: PixelBuffer, root: PixelBuffer, context: ScreenContext, verify: Bool) -> Alignment? {
        let candidate = image.hasAlpha ? opaque(image) : image
        if image.width == root.width, image.height == root.height {
            let same = matches(candidate, root: root, x: 0, y: 0)
            if same || !verify {
                return Alignment(method: .screen, rect: root.bounds, windowID: nil, verified: same)
            }
        }
        for window in context.windows.reversed()
        where window.frame.width == image.width && window.frame.height == image.height {
            let frame = window.frame
            if root.bounds.intersection(frame) == frame, matches(candidate, root: root, x: frame.x, y: frame.y) {
                return Alignment(method: .window, rect: frame, windowID: window.id)
            }
        }
        return search(candidate, root: root).map { Alignment(method: .search, rect: $0, windowID: nil) }
    }

    /// Whether `image` equals `root` at (x, y) but for a few pixels (a cursor, a caret).
    static func matches(_ image: PixelBuffer, root: PixelBuffer, x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x + image.width <= root.width, y + image.height <= root.height else { return false }
        let area = image.width * image.height
        let allowed = min(area / 10, 1024 + area / 200)
        var differing = 0
        return image.pixels.withUnsafeBufferPointer { pixels in
            root.pixels.withUnsafeBufferPointer { screen in
                for row in 0..<image.height {
                    let source = row * image.width
                    let target = (y + row) * root.width + x
                    if memcmp(pixels.baseAddress! + source, screen.baseAddress! + target, image.width * 4) == 0 { continue }
                    for column in 0..<image.width where (pixels[source + column] ^ screen[target + column]) & 0x00FF_FFFF != 0 {
                        differing += 1
                    }
                    if differing > allowed { return false }
                }
                return true
            }
        }
    }

    /// Finds `image` in `root`: takes a few of its rows with the most changes along them,
    /// finds each as an exact byte run in the root's rows, and checks each hit over the whole
    /// image. Rows that cross the cursor simply find nothing; the next row is tried.
    static func search(_ image: PixelBuffer, root: PixelBuffer) -> Rect? {
        // Too small a piece could match anywhere.
        guard image.width <= root.width, image.height <= root.height, image.width >= 16, image.height >= 8 else { return nil }
        for row in sampleRows(image) {
            if let found = searchRow(row, of: image, root: root) { return found }
        }
        return nil
    }

    private static func sampleRows(_ image: PixelBuffer, count: Int = 6) -> [Int] {
        var scored: [(row: Int, changes: Int)] = []
        let step = max(1, image.height / 64)
        for row in stride(from: 0, to: image.height, by: step) {
            let start = row * image.width
            var changes = 0
            for column in 1..<image.width where image.pixels[start + column] != image.pixels[start + column - 1] {
                changes += 1
            }
            if changes > 0 { scored.append((row, changes)) }
        }
        return scored.sorted { $0.changes > $1.changes }.prefix(count).map(\.row)
    }

    /// The one place where `row` of the image starts a match; nil when there is none, or more
    /// than one (a crop of repeated UI could sit on its twin, and the rules there be missed).
    private static func searchRow(_ row: Int, of image: PixelBuffer, root: PixelBuffer) -> Rect? {
        let needleLength = image.width * 4
        let rowLength = root.width * 4
        return image.pixels.withUnsafeBytes { pixels in
            root.pixels.withUnsafeBytes { screen in
                let needle = pixels.baseAddress! + row * needleLength
                var found: Rect?
                for top in 0...(root.height - image.height) {
                    let line = screen.baseAddress! + (top + row) * rowLength
                    var offset = 0
                    while offset + needleLength <= rowLength,
                          let hit = sg_memmem(line + offset, rowLength - offset, needle, needleLength) {
                        let byte = line.distance(to: UnsafeRawPointer(hit))
                        offset = byte + 1
                        guard byte % 4 == 0 else { continue }
                        let x = byte / 4
                        if x + image.width <= root.width, matches(image, root: root, x: x, y: top) {
                            guard found == nil else { return nil }
                            found = Rect(x: x, y: top, width: image.width, height: image.height)
                        }
                    }
                }
                return found
            }
        }
    }
}
