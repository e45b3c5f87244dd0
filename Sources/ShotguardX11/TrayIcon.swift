// The freedesktop System Tray Protocol (XEmbed): an icon window docked in whatever tray owns
// _NET_SYSTEM_TRAY_Sn (stalonetray, trayer, tint2, i3bar, xfce4-panel), drawn with Xlib.
import CX11
import ShotguardImaging

/// One icon, docked while a tray runs: the tray owns the selection `_NET_SYSTEM_TRAY_Sn`; the
/// icon asks it to dock (`SYSTEM_TRAY_REQUEST_DOCK`) and the tray reparents and maps it. A tray
/// that starts later says so with a `MANAGER` message on the root; one that goes away hands the
/// icon back to the root (its save-set), where it is unmapped until the next tray. With no tray
/// nothing is shown and nothing fails. The window is made for each tray, in the visual the
/// tray asks for (`_NET_SYSTEM_TRAY_VISUAL`): a 32-bit one gets the icon with its alpha, any
/// other the tray's background (ParentRelative) with the icon's opaque pixels drawn over it.
final class TrayIcon {
    static let title = "shotguard tray icon"
    /// `SYSTEM_TRAY_REQUEST_DOCK`, the opcode of a dock request.
    private static let requestDock = 0
    /// `XEMBED_MAPPED`: the embedder maps the icon.
    private static let xembedMapped = 1

    private let display: Display
    private let selection: Atom
    private let opcode: Atom
    private let managerAtom: Atom
    private let infoAtom: Atom
    private let visualAtom: Atom
    /// The tray's window (0: no tray).
    private(set) var manager: Window = 0
    /// The icon's window (0: none made, no tray).
    private(set) var window: Window = 0
    private(set) var isDocked = false
    private var size = (width: 22, height: 22)
    private var argb: (visual: UnsafeMutablePointer<Visual>, colormap: Colormap)?
    /// Draws the icon at a size (width, height): with alpha, transparent around it.
    var art: (Int, Int) -> PixelBuffer = { PixelBuffer(width: $0, height: $1, fill: 0, hasAlpha: true) }
    /// Whether the icon should show (false while a StatusNotifierItem host shows it instead).
    var wanted = true {
        didSet { if wanted != oldValue { wanted ? dock() : withdraw() } }
    }

    init(display: Display) {
        self.display = display
        selection = display.atom("_NET_SYSTEM_TRAY_S\(XDefaultScreen(display.handle))")
        opcode = display.atom("_NET_SYSTEM_TRAY_OPCODE")
        managerAtom = display.atom("MANAGER")
        infoAtom = display.atom("_XEMBED_INFO")
        visualAtom = display.atom("_NET_SYSTEM_TRAY_VISUAL")
        dock()
    }

    deinit { withdraw() }

    /// Finds the tray and asks it to dock a new icon window; nothing when there is none.
    private func dock() {
        guard wanted, !display.isLost else { return }
        withdraw()
        let owner = XGetSelectionOwner(display.handle, selection)
        guard owner != 0 else { return }
        // Told when the tray goes; a tray that went meanwhile fails the request: no tray.
        let (_, error) = display.trap { XSelectInput(display.handle, owner, StructureNotifyMask) }
        guard error == nil else { return }
        manager = owner
        makeWindow()
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = owner
        event.xclient.message_type = opcode
        event.xclient.format = 32
        event.xclient.data.l.0 = Int(CurrentTime)
        event.xclient.data.l.1 = Self.requestDock
        event.xclient.data.l.2 = Int(window)
        _ = display.trap { XSendEvent(display.handle, owner, 0, NoEventMask, &event) }
    }

    /// Takes the icon out of the tray (destroyed: the next tray gets a new window).
    private func withdraw() {
        if window != 0, !display.isLost { XDestroyWindow(display.handle, window) }
        if let argb, !display.isLost { XFreeColormap(display.handle, argb.colormap) }
        argb = nil
        window = 0
        isDocked = false
        manager = 0
        display.flush()
    }

    private func makeWindow() {
        let handle = display.handle
        var attributes = XSetWindowAttributes()
        attributes.event_mask = ExposureMask | ButtonPressMask | ButtonReleaseMask | StructureNotifyMask
        var mask = CWEventMask
        var depth = display.depth
        var visual = display.visual
        if let wanted = trayVisual() {
            argb = (wanted, XCreateColormap(handle, display.root, wanted, AllocNone))
            visual = wanted
            depth = 32
            attributes.colormap = argb!.colormap
            attributes.background_pixel = 0
            attributes.border_pixel = 0
            mask |= CWColormap | CWBackPixel | CWBorderPixel
        } else {
            attributes.background_pixmap = Pixmap(ParentRelative)
            mask |= CWBackPixmap
        }
        window = XCreateWindow(handle, display.root, 0, 0, UInt32(size.width), UInt32(size.height), 0, depth, UInt32(InputOutput),
                               visual, UInt(mask), &attributes)
        display.name(window, Self.title)
        // GTK's trays (trayer) size an icon by its normal hints, and give one without them a pixel.
        var hints = XSizeHints()
        hints.flags = PMinSize | PBaseSize
        hints.min_width = Int32(size.width)
        hints.min_height = Int32(size.height)
        hints.base_width = Int32(size.width)
        hints.base_height = Int32(size.height)
        XSetWMNormalHints(handle, window, &hints)
        var info: [Int] = [0, Self.xembedMapped]
        info.withUnsafeMutableBytes { bytes in
            _ = XChangeProperty(handle, window, infoAtom, infoAtom, 32, PropModeReplace,
                                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 2)
        }
    }

    /// The 32-bit TrueColor visual the tray asks icons to use, if it asks for one.
    private func trayVisual() -> UnsafeMutablePointer<Visual>? {
        guard let id = display.cardinals("_NET_SYSTEM_TRAY_VISUAL", of: manager, type: XA_VISUALID)?.first else { return nil }
        var template = XVisualInfo()
        template.visualid = VisualID(id)
        var count: Int32 = 0
        guard let list = XGetVisualInfo(display.handle, Int(VisualIDMask), &template, &count) else { return nil }
        defer { XFree(list) }
        guard count > 0, list.pointee.depth == 32 else { return nil }
        return list.pointee.visual
    }

    /// Handles an event of the icon, its tray or the root; after a click on the icon (first or
    /// third button), returns where the icon is on the root, for the menu to open beside it.
    func handle(_ event: inout XEvent) -> Rect? {
        switch event.type {
        case ClientMessage where event.xclient.window == display.root && event.xclient.message_type == managerAtom:
            if Atom(event.xclient.data.l.1) == selection { dock() }
        case DestroyNotify where event.xdestroywindow.window == manager && manager != 0:
            withdraw()
        case ReparentNotify where event.xreparent.window == window && window != 0:
            isDocked = event.xreparent.parent != display.root
            // A tray that went handed the icon back to the root, mapped: out of sight until the next.
            if !isDocked { withdraw() }
        case ConfigureNotify where event.xconfigure.window == window && window != 0:
            let new = (width: Int(event.xconfigure.width), height: Int(event.xconfigure.height))
            if new != size {
                size = new
                draw()
            }
        case Expose where event.xexpose.window == window && event.xexpose.count == 0:
            draw()
        case ButtonRelease where event.xbutton.window == window:
            if event.xbutton.button == UInt32(Button1) || event.xbutton.button == UInt32(Button3) {
                let button = event.xbutton
                return Rect(x: Int(button.x_root - button.x), y: Int(button.y_root - button.y), width: size.width, height: size.height)
            }
        default:
            break
        }
        return nil
    }

    /// Paints the icon as `art` draws it now (the state changed, or the tray showed it).
    func draw() {
        guard window != 0, isDocked, !display.isLost, size.width > 0, size.height > 0 else { return }
        let image = art(size.width, size.height)
        if let argb {
            display.put(Self.premultiplied(image), into: window, at: (0, 0), clip: nil, visual: argb.visual, depth: 32)
        } else {
            XClearWindow(display.handle, window)
            let mask = display.opaqueMask(of: image)
            display.put(image, into: window, at: (0, 0), clip: mask)
            XFreePixmap(display.handle, mask)
        }
        display.flush()
    }

    /// ARGB with each colour scaled by its alpha, as a compositing tray's 32-bit visual wants.
    private static func premultiplied(_ image: PixelBuffer) -> PixelBuffer {
        var out = image
        for index in out.pixels.indices {
            let pixel = out.pixels[index]
            let alpha = pixel >> 24
            func scaled(_ shift: UInt32) -> UInt32 { ((pixel >> shift & 0xFF) * alpha / 255) << shift }
            out.pixels[index] = alpha << 24 | scaled(16) | scaled(8) | scaled(0)
        }
        return out
    }
}
