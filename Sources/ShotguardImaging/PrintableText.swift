// Text that other programs control, made safe to print: control characters escaped, long words cut.
import ShotguardBase

extension String {
    /// The text with every control character (C0, DEL and C1) written as a visible escape
    /// (`\x1B`, `\x7F`, `\u{9B}`), so that printing a window title or a file name cannot retitle,
    /// clear or reprogram a terminal. Bytes that were not UTF-8 were already replaced by U+FFFD
    /// when the text was decoded; `escapingControlCharacters(in:)` shows them as bytes instead.
    /// With `keepingNewlines`, line feeds and tabs stay as they are (for multi-line output).
    public func escapingControlCharacters(keepingNewlines: Bool = false) -> String {
        guard unicodeScalars.contains(where: { Self.isControl($0) }) else { return self }
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if Self.isControl(scalar), !(keepingNewlines && (scalar == "\n" || scalar == "\t")) {
                out.append(contentsOf: Self.escape(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Raw bytes (a file name from the kernel) as printable text: valid UTF-8 is kept, control
    /// characters escaped as in `escapingControlCharacters()`, and each byte that is not part
    /// of valid UTF-8 shown as `\xNN`.
    public static func escapingControlCharacters(in bytes: some Collection<UInt8>) -> String {
        var out = ""
        var rest = Array(bytes)[...]
        while !rest.isEmpty {
            var iterator = rest.makeIterator()
            var decoder = UTF8()
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                let length = UTF8.width(scalar)
                out += isControl(scalar) ? escape(scalar) : String(Character(scalar))
                rest = rest.dropFirst(length)
            case .error, .emptyInput:
                out += "\\x" + String(rest.first!, radix: 16, uppercase: true).leftPadded(to: 2)
                rest = rest.dropFirst()
            }
        }
        return out
    }

    /// The text cut to about `limit` characters with `…` at the cut, for quoting a word in an
    /// error message: a 200,000-character word is not worth printing in full.
    public func excerpt(limit: Int = 80) -> String {
        count <= limit ? self : String(prefix(limit)) + "…"
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
        return scalar.value < 0x80 ? "\\x" + hex : "\\u{" + hex + "}"
    }
}
