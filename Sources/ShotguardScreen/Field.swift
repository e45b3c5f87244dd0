// The accessible fields on screen that the accessibility layer found, and their roles.

import ShotguardImaging

/// An AT-SPI2 role a `field` rule may name.
public enum FieldRole: String, CaseIterable, Hashable, Sendable, Comparable {
    /// `PASSWORD_TEXT`: a text field that hides what is typed.
    case password
    /// `TEXT`: an editable text field (a GTK3 `Gtk.Entry`, a text view).
    case text
    /// `ENTRY`: a one-line entry (Qt, Firefox and Chromium use it for their line edits).
    case entry

    public static func < (lhs: FieldRole, rhs: FieldRole) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The roles as a regions file spells them, for "expected" messages.
    public static let expectedForms = allCases.map(\.rawValue).joined(separator: ", ")
}

/// One showing field of an application, as AT-SPI2 reported it.
public struct AccessibleField: Hashable, Sendable {
    public var role: FieldRole
    /// The accessible name (often its label, e.g. "Card number"); may be empty.
    public var name: String
    /// The field's extents in screen coordinates.
    public var rect: Rect
    /// The application's accessible name (often its program name).
    public var application: String
    /// The application's process id, 0 when unknown.
    public var processID: Int

    public init(role: FieldRole, name: String, rect: Rect, application: String, processID: Int = 0) {
        self.role = role
        self.name = name
        self.rect = rect
        self.application = application
        self.processID = processID
    }
}

/// What the accessibility layer knows about the fields on screen at one moment.
public enum AccessibleFields: Hashable, Sendable {
    /// Nobody asked: no rule of the file names a field.
    case notQueried
    /// The accessibility bus could not be reached; `reason` is a sentence saying why and how
    /// to enable it. A `field` rule hits nothing.
    case unavailable(reason: String)
    /// Every showing field of the roles asked for, from every application on the bus.
    case available([AccessibleField])

    /// The fields found; empty unless `.available`.
    public var fields: [AccessibleField] {
        if case .available(let fields) = self { return fields }
        return []
    }
}
