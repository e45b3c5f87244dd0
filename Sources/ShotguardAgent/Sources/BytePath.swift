// A file path as the kernel holds it: bytes, which need not be UTF-8, with an escaped text form.

/// A path kept as the bytes inotify and `readdir` give, so a file whose name is not valid
/// UTF-8 is opened by its real name. Its `description` is for people (logs, reports): valid
/// UTF-8 is shown as it is, a backslash as `\\`, and any other byte that is not printable
/// text (invalid UTF-8, control characters) as `\xHH`, so the text is one line and tells
/// different paths apart.
public struct BytePath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path's bytes, without a terminating NUL.
    public let bytes: [UInt8]

    public init(bytes: some Sequence<UInt8>) { self.bytes = Array(bytes) }
    public init(_ text: String) { bytes = Array(text.utf8) }
    public init(stringLiteral text: String) { self.init(text) }

    /// `folder/name`, with no doubled slash after `/`.
    public func appending(_ name: BytePath) -> BytePath {
        guard !name.bytes.isEmpty else { return self }
        return BytePath(bytes: bytes.last == Self.slash ? bytes + name.bytes : bytes + [Self.slash] + name.bytes)
    }

    /// The last component (the file's name).
    public var lastComponent: BytePath {
        BytePath(bytes: bytes.lastIndex(of: Self.slash).map { bytes[($0 + 1)...] } ?? bytes[...])
    }

    /// The folder the path is in: `/` for a top-level path, nil for a bare name or `/`.
    public var parent: BytePath? {
        guard let slash = bytes.lastIndex(of: Self.slash), bytes.count > 1 else { return nil }
        return slash == 0 ? "/" : BytePath(bytes: bytes[..<slash])
    }

    /// The extension of the last component, in lower case (`png`), or "" when it has none.
    public var pathExtension: String {
        let name = lastComponent.lossyText
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    /// The path without the extension of its last component (`/a/shot` for `/a/shot.png`); the
    /// path itself when its name has none.
    public var withoutExtension: BytePath {
        let nameStart = (bytes.lastIndex(of: Self.slash) ?? -1) + 1
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > nameStart else { return self }
        return BytePath(bytes: bytes[..<dot])
    }

    /// Whether the path lies inside `folder` (not `folder` itself).
    public func isInside(_ folder: BytePath) -> Bool {
        let prefix = folder.bytes.last == Self.slash ? folder.bytes : folder.bytes + [Self.slash]
        return bytes.count > prefix.count && bytes.starts(with: prefix)
    }

    /// Text for matching names against words and extensions only, never for opening: each
    /// invalid byte becomes U+FFFD.
    public var lossyText: String { String(decoding: bytes, as: UTF8.self) }

    /// The exact text when the bytes are valid UTF-8, else nil.
    public var exactText: String? { String(validating: bytes, as: UTF8.self) }

    /// Calls `body` with the path as a NUL-terminated C string, for `open` and friends.
    public func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    public var description: String {
        // Most paths are printable UTF-8 with no backslash: shown as they are, in one step.
        if !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }),
           let text = String(validating: bytes, as: UTF8.self) {
            return text
        }
        var text = ""
        var index = 0
        while index < bytes.count {
            let length = Self.validSequenceLength(bytes, at: index)
            if length == 0 || bytes[index] < 0x20 || bytes[index] == 0x7F {
                text += "\\x" + Self.hex(bytes[index])
                index += 1
            } else if bytes[index] == UInt8(ascii: "\\") {
                text += "\\\\"
                index += 1
            } else {
                text += String(decoding: bytes[index..<(index + length)], as: UTF8.self)
                index += length
            }
        }
        return text
    }

    private static let slash = UInt8(ascii: "/")

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    /// The length of the well-formed UTF-8 sequence starting at `index` (RFC 3629: no
    /// overlong forms, no surrogates, nothing above U+10FFFF), or 0 when it is not one.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let (length, low, high): (Int, UInt8, UInt8)
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
        case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
        case 0xED: (length, low, high) = (3, 0x80, 0x9F)
        case 0xE1...0xEF: (length, low, high) = (3, 0x80, 0xBF)
        case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
        case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
        case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
        default: return 0
        }
        guard index + length <= bytes.count, (low...high).contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<max(2, length) where !(0x80...0xBF).contains(bytes[index + offset]) { return 0 }
        return length
    }
}
