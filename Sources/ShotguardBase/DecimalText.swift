// Decimal numbers as text with a fixed count of decimals, for logs and JSON, without traps.

extension String {
    /// `value` with `digits` decimals (0 to 9): `String(decimal: 12.345, digits: 1)` is
    /// "12.3". Never traps: a value too large for that many decimals in 64 bits is written in
    /// Swift's shortest form (`1e+20`), and one that is not finite as `nan`, `inf` or `-inf`.
    /// No Foundation, no C `printf`: the same text in every locale.
    public init(decimal value: Double, digits: Int) {
        guard value.isFinite else {
            self = value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf")
            return
        }
        let digits = Swift.min(Swift.max(digits, 0), 9)
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        guard let scaled = Int64(exactly: (abs(value) * Double(scale)).rounded()) else {
            self = String(value)
            return
        }
        let sign = value < 0 && scaled != 0 ? "-" : ""
        let whole = String(scaled / scale)
        guard digits > 0 else {
            self = sign + whole
            return
        }
        let fraction = String(scaled % scale)
        self = sign + whole + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}
