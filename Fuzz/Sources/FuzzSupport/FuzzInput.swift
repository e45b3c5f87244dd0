// Splits one fuzzer input into the fields a target needs, so every byte string is a valid call.

/// A cursor over the fuzzer's bytes. Reads never fail: past the end they return zeros and
/// empty values, so libFuzzer can grow or cut an input anywhere and still reach the code.
public struct FuzzInput {
    public let bytes: [UInt8]
    public private(set) var position = 0

    /// The bytes libFuzzer passed to `LLVMFuzzerTestOneInput`.
    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var isAtEnd: Bool { position >= bytes.count }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A little-endian 16-bit number.
    public mutating func uint16() -> UInt16 {
        UInt16(byte()) | UInt16(byte()) << 8
    }

    /// A little-endian 32-bit number.
    public mutating func uint32() -> UInt32 {
        UInt32(uint16()) | UInt32(uint16()) << 16
    }

    /// A number in `range`, from one or two bytes depending on the range's size.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt(range.upperBound - range.lowerBound)
        let raw = span < 256 ? UInt(byte()) : UInt(uint16())
        return range.lowerBound + Int(raw % (span + 1))
    }

    /// A length-prefixed run of up to 255 bytes (fewer when the input ends first).
    public mutating func chunk() -> [UInt8] {
        take(Int(byte()))
    }

    /// Up to `count` bytes.
    public mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, position + count)
        defer { position = max(position, end) }
        return position < end ? Array(bytes[position..<end]) : []
    }

    /// Everything not read yet.
    public mutating func rest() -> [UInt8] {
        take(bytes.count)
    }

    /// A length-prefixed string, decoded as the program decodes outside bytes (names, titles,
    /// paths): invalid UTF-8 becomes U+FFFD.
    public mutating func string() -> String {
        String(decoding: chunk(), as: UTF8.self)
    }
}

/// Stops the run with `message` when `condition` is false. A trap is what libFuzzer reports as
/// a crash and saves the input for; `assert` would vanish in a release build.
public func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("fuzz property broken: \(message())") }
}
