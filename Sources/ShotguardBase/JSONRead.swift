// Reads back the JSON the agent itself writes (quarantine entries, reports), bounded in depth.

/// A value of a JSON document: a string, a number, an array or an object; `true`, `false` and
/// `null` are `other`, since nothing read back needs them.
public enum JSONValue: Sendable {
    case string(String)
    case number(Double)
    case array([JSONValue])
    case object([String: JSONValue])
    case other

    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var number: Double? { if case .number(let value) = self { value } else { nil } }
    public var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    public var object: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }

    /// The member `key` of an object; nil for a missing member or a value that is no object.
    public subscript(key: String) -> JSONValue? { object?[key] }

    /// How deep arrays and objects may nest: the files read back sit in folders anyone with the
    /// user's rights can write to, and a document nested without end must not exhaust the stack.
    public static let maximumDepth = 32

    /// The members of a JSON object, or nil when `bytes` is not one (or nests too deep).
    public static func parseObject(_ bytes: [UInt8]) -> [String: JSONValue]? {
        var reader = Reader(bytes: bytes)
        return reader.object(depth: 1)
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// An object at nesting level `depth` (the outermost is 1).
        mutating func object(depth: Int) -> [String: JSONValue]? {
            guard depth <= JSONValue.maximumDepth, take(UInt8(ascii: "{")) else { return nil }
            var members: [String: JSONValue] = [:]
            if take(UInt8(ascii: "}")) { return members }
            repeat {
                skipSpace()
                guard let key = string(), take(UInt8(ascii: ":")), let value = value(depth: depth) else { return nil }
                members[key] = value
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}")) ? members : nil
        }

        /// An array at nesting level `depth`.
        mutating func array(depth: Int) -> [JSONValue]? {
            guard depth <= JSONValue.maximumDepth, take(UInt8(ascii: "[")) else { return nil }
            var items: [JSONValue] = []
            if take(UInt8(ascii: "]")) { return items }
            repeat {
                guard let item = value(depth: depth) else { return nil }
                items.append(item)
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]")) ? items : nil
        }

        /// A value inside a container at level `depth`.
        mutating func value(depth: Int) -> JSONValue? {
            skipSpace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "\"") { return string().map(JSONValue.string) }
            if bytes[index] == UInt8(ascii: "{") { return object(depth: depth + 1).map(JSONValue.object) }
            if bytes[index] == UInt8(ascii: "[") { return array(depth: depth + 1).map(JSONValue.array) }
            let start = index
            while index < bytes.count, !",}] \n\r\t".utf8.contains(bytes[index]) { index += 1 }
            let word = String(decoding: bytes[start..<index], as: UTF8.self)
            if let number = Double(word) { return .number(number) }
            return ["true", "false", "null"].contains(word) ? .other : nil
        }

        mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                raw.removeAll()
            }
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    flush()
                    switch escape {
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "b"): scalars.append("\u{08}")
                    case UInt8(ascii: "f"): scalars.append("\u{0C}")
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count,
                              let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else { return nil }
                        index += 4
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    default: scalars.append(Unicode.Scalar(escape))
                    }
                default:
                    raw.append(byte)
                }
            }
            return nil
        }
    }
}
