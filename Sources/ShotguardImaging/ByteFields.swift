// Reading and writing the fixed-width fields of binary image headers, bounds-checked.

/// Fields read from untrusted bytes: every read is checked against the end, and a read past
/// it gives nil rather than a trap, so a header parser states what it needs with `guard let`.
struct ByteFields {
    let bytes: UnsafeRawBufferPointer
    var bigEndian: Bool

    init(_ bytes: UnsafeRawBufferPointer, bigEndian: Bool = false) {
        self.bytes = bytes
        self.bigEndian = bigEndian
    }

    var count: Int { bytes.count }

    func u8(_ at: Int) -> Int? { at >= 0 && at < bytes.count ? Int(bytes[at]) : nil }

    func u16(_ at: Int) -> Int? {
        guard at >= 0, at <= bytes.count - 2 else { return nil }
        let (a, b) = (Int(bytes[at]), Int(bytes[at + 1]))
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(_ at: Int) -> Int? {
        guard at >= 0, at <= bytes.count - 4 else { return nil }
        let (a, b, c, d) = (Int(bytes[at]), Int(bytes[at + 1]), Int(bytes[at + 2]), Int(bytes[at + 3]))
        return bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
    }

    func u64(_ at: Int) -> UInt64? {
        guard let first = u32(at), let second = u32(at + 4) else { return nil }
        return bigEndian ? UInt64(first) << 32 | UInt64(second) : UInt64(second) << 32 | UInt64(first)
    }

    /// Whether `length` bytes from `at` lie inside, without overflowing on hostile values.
    func contains(_ at: Int, length: Int) -> Bool {
        at >= 0 && length >= 0 && at <= bytes.count && length <= bytes.count - at
    }
}

/// Bytes of a file being written, field by field.
struct ByteWriter {
    var bytes: [UInt8] = []
    var bigEndian: Bool

    init(bigEndian: Bool = false, capacity: Int = 0) {
        self.bigEndian = bigEndian
        bytes.reserveCapacity(capacity)
    }

    mutating func u8(_ value: Int) { bytes.append(UInt8(truncatingIfNeeded: value)) }

    mutating func u16(_ value: Int) {
        let (high, low) = (UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value))
        bytes += bigEndian ? [high, low] : [low, high]
    }

    mutating func u32(_ value: Int) {
        let parts = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
        bytes += bigEndian ? parts : parts.reversed()
    }

    mutating func append(_ more: some Sequence<UInt8>) { bytes += more }
}

/// `a * b * c…` for sizes read from a header, or nil when it overflows: the caller then says
/// the file is too large rather than trapping.
func checkedProduct(_ factors: Int...) -> Int? {
    var product = 1
    for factor in factors {
        guard factor >= 0 else { return nil }
        let (next, overflow) = product.multipliedReportingOverflow(by: factor)
        if overflow { return nil }
        product = next
    }
    return product
}

/// The text a C function wrote into `buffer`, up to its NUL.
func cText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
