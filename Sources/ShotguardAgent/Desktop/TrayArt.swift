// The tray icon's pixels: a shield in the colour of the state, with a white sign on it, drawn
// at any size with alpha (no image files to install or theme to rely on).
import ShotguardBus
import ShotguardImaging

enum TrayArt {
    /// Green protecting, amber paused, red recording, grey off.
    static func colour(_ icon: PresenceIcon) -> UInt32 {
        switch icon {
        case .protecting: return 0x2E9E4F
        case .paused: return 0xE0A000
        case .recording: return 0xD42A2A
        case .off: return 0x7A7A7A
        }
    }

    /// The icon at `width`×`height`, transparent around the shield (0x00000000).
    static func render(_ icon: PresenceIcon, width: Int, height: Int) -> PixelBuffer {
        var image = PixelBuffer(width: max(1, width), height: max(1, height), fill: 0, hasAlpha: true)
        let side = min(image.width, image.height)
        let left = (image.width - side) / 2, top = (image.height - side) / 2
        let fill = 0xFF00_0000 | colour(icon)
        let edge = 0xFF00_0000 | darker(colour(icon))
        for y in 0..<side {
            for x in 0..<side where inShield(x, y, side) {
                let border = !inShield(x - 1, y, side) || !inShield(x + 1, y, side) || !inShield(x, y - 1, side)
                    || !inShield(x, y + 1, side)
                image[left + x, top + y] = border ? edge : inSign(icon, x, y, side) ? 0xFFFF_FFFF : fill
            }
        }
        return image
    }

    /// The shield: straight sides down to 55% of its height, then a curve to a point.
    private static func inShield(_ x: Int, _ y: Int, _ side: Int) -> Bool {
        guard x >= 0, y >= 0, x < side, y < side else { return false }
        let u = (Double(x) + 0.5) / Double(side) * 2 - 1
        let v = (Double(y) + 0.5) / Double(side)
        guard v >= 0.06, v <= 0.96 else { return false }
        let half = v < 0.55 ? 0.82 : 0.82 * max(0, 1 - ((v - 0.55) / 0.41) * ((v - 0.55) / 0.41)).squareRoot()
        return abs(u) <= half
    }

    /// The sign: a tick (protecting), two bars (paused), a dot (recording), a bar across (off).
    private static func inSign(_ icon: PresenceIcon, _ x: Int, _ y: Int, _ side: Int) -> Bool {
        let u = (Double(x) + 0.5) / Double(side), v = (Double(y) + 0.5) / Double(side)
        let stroke = max(0.09, 1.6 / Double(side))
        switch icon {
        case .protecting:
            return distance(u, v, from: (0.28, 0.48), to: (0.44, 0.64)) < stroke
                || distance(u, v, from: (0.44, 0.64), to: (0.72, 0.32)) < stroke
        case .paused:
            return v > 0.26 && v < 0.68 && ((u > 0.33 && u < 0.45) || (u > 0.55 && u < 0.67))
        case .recording:
            return (u - 0.5) * (u - 0.5) + (v - 0.46) * (v - 0.46) < 0.2 * 0.2
        case .off:
            return distance(u, v, from: (0.3, 0.66), to: (0.7, 0.26)) < stroke
        }
    }

    private static func distance(_ u: Double, _ v: Double, from a: (Double, Double), to b: (Double, Double)) -> Double {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1)
        let t = max(0, min(1, ((u - a.0) * dx + (v - a.1) * dy) / (dx * dx + dy * dy)))
        let (px, py) = (a.0 + t * dx - u, a.1 + t * dy - v)
        return (px * px + py * py).squareRoot()
    }

    private static func darker(_ rgb: UInt32) -> UInt32 {
        ((rgb >> 16 & 0xFF) * 3 / 5) << 16 | ((rgb >> 8 & 0xFF) * 3 / 5) << 8 | (rgb & 0xFF) * 3 / 5
    }

    /// The icon as StatusNotifierItem carries it: ARGB32, network byte order, at a few sizes.
    static func pixmaps(_ icon: PresenceIcon, sizes: [Int] = [22, 48]) -> [TrayIconPixmap] {
        sizes.map { size in
            let image = render(icon, width: size, height: size)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(size * size * 4)
            for pixel in image.pixels {
                bytes += [UInt8(pixel >> 24), UInt8(pixel >> 16 & 0xFF), UInt8(pixel >> 8 & 0xFF), UInt8(pixel & 0xFF)]
            }
            return TrayIconPixmap(width: Int32(size), height: Int32(size), argb: bytes)
        }
    }
}
