// Errors of the X11 layer, worded as sentences a user can act on.

/// Why something on the X display failed.
public struct X11Error: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        case noDisplay, connectionLost, windowGone, unsupported, capture, clipboard
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// Window ids print as X tools print them: `0x1a00007`.
public func hexID(_ id: UInt) -> String { "0x" + String(id, radix: 16) }
