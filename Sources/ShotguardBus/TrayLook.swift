// What a StatusNotifierItem shows: its status, icon, tooltip and menu, as plain values.

/// One entry of the tray's menu.
public struct TrayMenuItem: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A choice: chosen, its id comes back to the item's owner.
        case action
        /// A line of text that cannot be chosen (the state, at the top).
        case label
        case separator
    }

    /// Positive and unique in the menu (0 is the menu itself in com.canonical.dbusmenu).
    public var id: Int32
    public var label: String
    public var enabled: Bool
    public var kind: Kind

    public init(id: Int32, label: String, enabled: Bool = true, kind: Kind = .action) {
        self.id = id
        self.label = label
        self.enabled = enabled
        self.kind = kind
    }
}

/// An icon as StatusNotifierItem carries it: ARGB32 pixels in network byte order.
public struct TrayIconPixmap: Sendable, Equatable {
    public var width: Int32
    public var height: Int32
    /// `width * height * 4` bytes: A, R, G, B for each pixel, row by row.
    public var argb: [UInt8]

    public init(width: Int32, height: Int32, argb: [UInt8]) {
        self.width = width
        self.height = height
        self.argb = argb
    }
}

/// Everything a tray host shows of the item.
public struct TrayLook: Sendable, Equatable {
    /// `Active`, `Passive` or `NeedsAttention` (StatusNotifierItem's three).
    public var status: String
    /// A freedesktop icon name the host may find in its theme; the pixmaps otherwise.
    public var iconName: String
    public var pixmaps: [TrayIconPixmap]
    public var title: String
    public var toolTipTitle: String
    public var toolTipText: String
    public var menu: [TrayMenuItem]

    public init(status: String, iconName: String, pixmaps: [TrayIconPixmap], title: String, toolTipTitle: String,
                toolTipText: String, menu: [TrayMenuItem]) {
        self.status = status
        self.iconName = iconName
        self.pixmaps = pixmaps
        self.title = title
        self.toolTipTitle = toolTipTitle
        self.toolTipText = toolTipText
        self.menu = menu
    }
}

extension BusMessage {
    /// `a(iiay)`: the icon's sizes.
    func append(pixmaps: [TrayIconPixmap]) throws(BusError) {
        try open("a", "(iiay)")
        for pixmap in pixmaps {
            try open("r", "iiay")
            try append(pixmap.width)
            try append(pixmap.height)
            try append(bytes: pixmap.argb)
            try close()
        }
        try close()
    }
}
