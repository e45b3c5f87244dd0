// The pure steps of a clipboard transfer: reading a TARGETS reply and joining INCR chunks under a cap.

/// The byte-level work of a clipboard transfer, apart from X so that it can be tested and
/// fuzzed alone: the clipboard owner writes every byte of it.
public enum ClipboardAssembly {
    /// The atoms of a TARGETS reply, as `takeProperty` hands over a format-32 property
    /// (each item as 4 little-endian bytes). Nil when the reply is not a list of atoms
    /// (another format), since any other reading of it would be a guess; a trailing partial
    /// item is ignored.
    public static func targets(in bytes: [UInt8], format: Int32) -> [UInt]? {
        guard format == 32 else { return nil }
        return stride(from: 0, to: bytes.count / 4 * 4, by: 4).map { (index: Int) -> UInt in
            bytes[index..<(index + 4)].reversed().reduce(0) { atom, byte in atom << 8 | UInt(byte) }
        }
    }
}

/// The chunks of an INCR transfer, joined in the order they came, never holding more than
/// `limit` bytes: a chunk that would pass the limit is refused before it is copied.
public struct IncrementalData: Sendable {
    /// What the transfer needs after a chunk.
    public enum Progress: Equatable, Sendable {
        /// The chunk was kept; more follow.
        case needsMore
        /// The empty chunk that ends the transfer arrived; `data` is the whole image.
        case complete
        /// The chunk would take the data past `limit`; the transfer must be abandoned.
        case tooLarge
    }

    public let limit: Int
    /// The chunks kept so far, joined.
    public private(set) var data: [UInt8] = []

    public init(limit: Int) {
        self.limit = limit
    }

    /// Takes the next chunk; an empty chunk ends the transfer (the INCR protocol's last step).
    public mutating func add(_ chunk: [UInt8]) -> Progress {
        if chunk.isEmpty { return .complete }
        // Subtracting keeps the comparison free of overflow whatever the chunk's size.
        guard chunk.count <= limit - data.count else { return .tooLarge }
        data += chunk
        return .needsMore
    }
}
