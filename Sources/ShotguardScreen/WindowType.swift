// The EWMH window types (_NET_WM_WINDOW_TYPE) that rules can name: notification, dialog, menu...

/// A window's functional type, from its `_NET_WM_WINDOW_TYPE` property (EWMH 1.5). The raw
/// value is the word a regions file uses (`window type=notification`).
public enum WindowType: String, CaseIterable, Hashable, Sendable, Comparable {
    case normal, dialog, utility, toolbar, splash, menu, dropdown, popup, tooltip, notification, combo, dnd,
         dock, desktop

    /// The atom that names the type: `_NET_WM_WINDOW_TYPE_NOTIFICATION`; `dropdown` is
    /// `_NET_WM_WINDOW_TYPE_DROPDOWN_MENU` and `popup` `_NET_WM_WINDOW_TYPE_POPUP_MENU`.
    public var atomName: String {
        switch self {
        case .dropdown: return "_NET_WM_WINDOW_TYPE_DROPDOWN_MENU"
        case .popup: return "_NET_WM_WINDOW_TYPE_POPUP_MENU"
        default: return "_NET_WM_WINDOW_TYPE_" + rawValue.uppercased()
        }
    }

    /// The types for a window whose property is `listed` (in the property's order, unknown atoms
    /// already left out). EWMH: a managed window without the property is `normal`, or `dialog`
    /// when it is transient for another; an override-redirect window without it has no type.
    public static func effective(listed: [WindowType], isTransient: Bool, isOverrideRedirect: Bool) -> [WindowType] {
        guard listed.isEmpty, !isOverrideRedirect else { return listed }
        return [isTransient ? .dialog : .normal]
    }

    public static func < (lhs: WindowType, rhs: WindowType) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The words as a regions file spells them, for "expected" messages.
    public static let expectedForms = allCases.map(\.rawValue).joined(separator: ", ")
}
