// A small JSON writer with keys kept in the order given (for stable, readable output).

public indirect enum JSON: Sendable {
    case string(String)
    case number(Int)
    /// A number with a fixed count of decimals (a duration in milliseconds, to the microsecond).
    case decimal(Double, digits: Int)
    case bool(Bool)
    case null
    case array([JSON])
    case object([(String, JSON)])

    public var text: String {
        switch self {
        case .string(let value): return JSON.quote(value)
        case .number(let value): return String(value)
        case .decimal(let value, let digits): return JSON.fixed(value, digits: digits)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { JSON.quote($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    /// `value` with `digits` decimals (0 to 9), as `String(decimal:digits:)` writes it; a
    /// value that is not finite is null, which JSON has instead of nan and inf.
    public static func fixed(_ value: Double, digits: Int) -> String {
        value.isFinite ? String(decimal: value, digits: digits) : "null"
    }

    public static func quote(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
