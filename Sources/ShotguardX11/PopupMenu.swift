// The tray icon's menu: an override-redirect window of one child window per item, each named by
// its label, drawn with the 5x7 font; the pointer grabbed so that a click elsewhere closes it.
import CX11
import ShotguardImaging

/// One entry of the menu.
public struct PresenceMenuItem: Equatable, Sendable {
    public var label: String
    public var enabled: Bool
    public var isSeparator: Bool
    /// What comes back when the item is chosen.
    public var tag: Int

    public init(label: String, enabled: Bool = true, isSeparator: Bool = false, tag: Int = 0) {
        self.label = label
        self.enabled = enabled
        self.isSeparator = isSeparator
        self.tag = tag
    }
}

/// The menu while it is open. Items are child windows named by their labels, so tools (and
/// tests) find an item with `xdotool search --name LABEL`; each has a pixmap for its normal and
/// its highlighted look, which the server paints on expose. Opens at a root position (the
/// click on the icon), inside the screen; closes on a choice, a click outside, or Escape.
final class PopupMenu {
    static let title = "shotguard menu"
    static let scale = 2
    static let rowHeight = 24
    static let separatorHeight = 9
    static let padding = 12
    static let background: UInt32 = 0xF2F2F2
    static let text: UInt32 = 0x1E1E1E
    static let disabledText: UInt32 = 0x8A8A8A
    static let highlight: UInt32 = 0x2F6FB5
    static let highlightText: UInt32 = 0xFFFFFF

    private struct Row {
        let window: Window
        let item: PresenceMenuItem
        let normal: Pixmap
        let highlighted: Pixmap?
    }

    private let display: Display
    private(set) var window: Window = 0
    private var rows: [Row] = []
    private var frame = Rect(x: 0, y: 0, width: 0, height: 0)
    private var grabbed = false

    init(display: Display) {
        self.display = display
    }

    deinit { close() }

    var isOpen: Bool { window != 0 }

    /// Opens the menu with `items` beside `anchor` (the icon, on the root): below it where there
    /// is room, else above, inside the screen; replaces an open one.
    func open(_ items: [PresenceMenuItem], beside anchor: Rect) {
        close()
        guard !items.isEmpty, !display.isLost else { return }
        let handle = display.handle
        let width = items.map { PixelBuffer.textSize($0.label, scale: Self.scale).width }.max()! + 2 * Self.padding
        let height = items.map { $0.isSeparator ? Self.separatorHeight : Self.rowHeight }.reduce(0, +)
        let screen = display.size
        let x = min(max(0, anchor.x), max(0, screen.width - width - 2))
        let y = anchor.maxY + height + 2 <= screen.height ? anchor.maxY : max(0, anchor.y - height - 2)
        frame = Rect(x: x, y: y, width: width, height: height)
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = display.pixel(rgb: Self.background)
        attributes.border_pixel = display.pixel(rgb: 0x7A7A7A)
        attributes.event_mask = StructureNotifyMask | ButtonPressMask | ButtonReleaseMask | KeyPressMask
        window = XCreateWindow(handle, display.root, Int32(x), Int32(y), UInt32(width), UInt32(height), 1, 0, UInt32(InputOutput),
                               nil, UInt(CWOverrideRedirect | CWBackPixel | CWBorderPixel | CWEventMask), &attributes)
        display.name(window, Self.title)
        display.setWindowType(window, "_NET_WM_WINDOW_TYPE_POPUP_MENU")
        var top = 0
        for item in items {
            let rowHeight = item.isSeparator ? Self.separatorHeight : Self.rowHeight
            rows.append(makeRow(item, y: top, width: width, height: rowHeight))
            top += rowHeight
        }
        XMapSubwindows(handle, window)
        XMapRaised(handle, window)
        display.flush()
    }

    private func makeRow(_ item: PresenceMenuItem, y: Int, width: Int, height: Int) -> Row {
        let handle = display.handle
        let normal = display.pixmap(of: Self.render(item, width: width, height: height, highlighted: false)) ?? 0
        let highlighted = item.enabled && !item.isSeparator
            ? display.pixmap(of: Self.render(item, width: width, height: height, highlighted: true)) : nil
        var attributes = XSetWindowAttributes()
        attributes.background_pixmap = normal
        attributes.event_mask = EnterWindowMask | LeaveWindowMask | ButtonPressMask | ButtonReleaseMask
        let child = XCreateWindow(handle, window, 0, Int32(y), UInt32(width), UInt32(height), 0, 0, UInt32(InputOutput), nil,
                                  UInt(CWBackPixmap | CWEventMask), &attributes)
        display.name(child, item.isSeparator ? "separator" : item.label)
        return Row(window: child, item: item, normal: normal, highlighted: highlighted)
    }

    /// One row's pixels: its label in the 5x7 font, or a line for a separator.
    static func render(_ item: PresenceMenuItem, width: Int, height: Int, highlighted: Bool) -> PixelBuffer {
        var image = PixelBuffer(width: width, height: height, fill: 0xFF00_0000 | (highlighted ? highlight : background))
        if item.isSeparator {
            image.fillRect(Rect(x: 4, y: height / 2, width: width - 8, height: 1), colour: 0xC0C0C0)
            return image
        }
        let size = PixelBuffer.textSize(item.label, scale: scale)
        let colour = highlighted ? highlightText : item.enabled ? text : disabledText
        image.draw(item.label, x: padding, y: (height - size.height) / 2, scale: scale, colour: colour)
        return image
    }

    /// Closes the menu: the grabs end, the windows and pixmaps go.
    func close() {
        guard window != 0 else { return }
        if !display.isLost {
            if grabbed {
                XUngrabPointer(display.handle, UInt(CurrentTime))
                XUngrabKeyboard(display.handle, UInt(CurrentTime))
            }
            XDestroyWindow(display.handle, window)
            for row in rows {
                if row.normal != 0 { XFreePixmap(display.handle, row.normal) }
                if let highlighted = row.highlighted { XFreePixmap(display.handle, highlighted) }
            }
            display.flush()
        }
        grabbed = false
        rows = []
        window = 0
    }

    /// Handles an event of the menu's windows; returns the tag of a chosen item. Events of
    /// other windows are none of its business (nil, and the menu stays as it is).
    func handle(_ event: inout XEvent) -> Int? {
        guard window != 0 else { return nil }
        switch event.type {
        case MapNotify where event.xmap.window == window:
            grab()
        case EnterNotify, LeaveNotify:
            if let row = rows.first(where: { $0.window == event.xcrossing.window }), let highlighted = row.highlighted {
                XSetWindowBackgroundPixmap(display.handle, row.window, event.type == EnterNotify ? highlighted : row.normal)
                XClearWindow(display.handle, row.window)
                display.flush()
            }
        case ButtonRelease:
            if let row = rows.first(where: { $0.window == event.xbutton.window }) {
                guard row.item.enabled, !row.item.isSeparator else { return nil }
                close()
                return row.item.tag
            }
            if event.xbutton.window == window, !frame.contains(x: Int(event.xbutton.x_root), y: Int(event.xbutton.y_root)) {
                close()
            }
        case ButtonPress where event.xbutton.window == window:
            // With the pointer grabbed, a press on another program's window comes here.
            if !frame.contains(x: Int(event.xbutton.x_root), y: Int(event.xbutton.y_root)) { close() }
        case KeyPress:
            // XK_Escape
            if XLookupKeysym(&event.xkey, 0) == 0xFF1B { close() }
        default:
            break
        }
        return nil
    }

    /// Grabs the pointer (a click anywhere else closes the menu) and the keyboard (Escape), as
    /// menus do; without the grabs it still works, and closes on a click on the icon.
    private func grab() {
        let handle = display.handle
        let mask = UInt32(ButtonPressMask | ButtonReleaseMask | EnterWindowMask | LeaveWindowMask)
        grabbed = XGrabPointer(handle, window, 1, mask, GrabModeAsync, GrabModeAsync, 0, 0, UInt(CurrentTime)) == GrabSuccess
        if grabbed { XGrabKeyboard(handle, window, 1, GrabModeAsync, GrabModeAsync, UInt(CurrentTime)) }
        display.flush()
    }
}
