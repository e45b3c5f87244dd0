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

    /// `value` with `digits` decimals (0 to 9), without Foundation's formatting. A value too
    /// large for that many decimals in 64 bits is written in Swift's shortest form (`1e+20`),
    /// which is JSON too; one that is not finite is null.
    public static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "null" }
        let digits = min(max(digits, 0), 9)
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        guard let scaled = Int64(exactly: (abs(value) * Double(scale)).rounded()) else { return String(value) }
        let whole = String(scaled / scale)
        guard digits > 0 else { return (value < 0 && scaled != 0 ? "-" : "") + whole }
        let fraction = String(scaled % scale)
        return (value < 0 && scaled != 0 ? "-" : "") + whole + "." + String(repeating: "0", count: digits - fraction.count) + fraction
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
