// Pixels of this process's own windows (the tray icon, its menu, the recording mark): images
// put into pixmaps, and a 1-bit mask of an image's opaque pixels.
import CX11
import ShotguardImaging

extension Display {
    /// A pixmap of the default depth holding `image` (XPutImage); the caller frees it. Nil when
    /// the server refused (out of memory).
    func pixmap(of image: PixelBuffer) -> Pixmap? {
        guard image.width > 0, image.height > 0 else { return nil }
        let pixmap = XCreatePixmap(handle, root, UInt32(image.width), UInt32(image.height), UInt32(depth))
        guard put(image, into: pixmap, at: (0, 0), clip: nil) else {
            XFreePixmap(handle, pixmap)
            return nil
        }
        return pixmap
    }

    /// Draws `image` into `drawable` at `origin`; with `clip`, only where that bitmap is set.
    /// False when Xlib could not make the image.
    @discardableResult
    func put(_ image: PixelBuffer, into drawable: Drawable, at origin: (x: Int, y: Int), clip: Pixmap?,
             visual: UnsafeMutablePointer<Visual>? = nil, depth: Int32? = nil) -> Bool {
        var pixels = image.pixels
        return pixels.withUnsafeMutableBytes { bytes -> Bool in
            guard let ximage = XCreateImage(handle, visual ?? self.visual, UInt32(depth ?? self.depth), ZPixmap, 0,
                                            bytes.baseAddress!.assumingMemoryBound(to: CChar.self),
                                            UInt32(image.width), UInt32(image.height), 32, Int32(image.width * 4)) else {
                return false
            }
            let gc = XCreateGC(handle, drawable, 0, nil)
            if let clip {
                XSetClipMask(handle, gc, clip)
                XSetClipOrigin(handle, gc, Int32(origin.x), Int32(origin.y))
            }
            XPutImage(handle, drawable, gc, ximage, 0, 0, Int32(origin.x), Int32(origin.y), UInt32(image.width), UInt32(image.height))
            XFreeGC(handle, gc)
            ximage.pointee.data = nil  // owned by Swift, not by Xlib
            _ = ximage.pointee.f.destroy_image(ximage)
            return true
        }
    }

    /// A bitmap set where `image` is at least half opaque; the caller frees it.
    func opaqueMask(of image: PixelBuffer) -> Pixmap {
        let stride = (image.width + 7) / 8
        var bits = [CChar](repeating: 0, count: max(1, stride * image.height))
        for y in 0..<image.height {
            for x in 0..<image.width where image[x, y] >> 24 >= 0x80 {
                // XCreateBitmapFromData reads the leftmost pixel from each byte's lowest bit.
                bits[y * stride + x / 8] |= CChar(bitPattern: UInt8(1 << (x % 8)))
            }
        }
        return XCreateBitmapFromData(handle, root, bits, UInt32(max(1, image.width)), UInt32(max(1, image.height)))
    }

    /// Names a window of this process for people and tools (`xdotool search --name`, `xprop`):
    /// WM_NAME, _NET_WM_NAME and WM_CLASS `shotguard`/`Shotguard`.
    func name(_ window: Window, _ title: String) {
        "shotguard".withCString { instance in
            "Shotguard".withCString { className in
                var hint = XClassHint(res_name: UnsafeMutablePointer(mutating: instance),
                                      res_class: UnsafeMutablePointer(mutating: className))
                XSetClassHint(handle, window, &hint)
            }
        }
        XStoreName(handle, window, title)
        let utf8 = Array(title.utf8)
        XChangeProperty(handle, window, atom("_NET_WM_NAME"), atom("UTF8_STRING"), 8, PropModeReplace, utf8, Int32(utf8.count))
    }

    /// Sets `_NET_WM_WINDOW_TYPE` to the one type `name` (`_NET_WM_WINDOW_TYPE_POPUP_MENU`).
    func setWindowType(_ window: Window, _ name: String) {
        var type = [atom(name)]
        type.withUnsafeMutableBytes { bytes in
            _ = XChangeProperty(handle, window, atom("_NET_WM_WINDOW_TYPE"), XA_ATOM, 32, PropModeReplace,
                                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
    }
}
