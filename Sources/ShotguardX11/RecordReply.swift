// Splits one reply of RECORD's EnableContext into its protocol elements, as libXtst would hand them over.
import CX11

/// One reply of an enabled RECORD context: a 32-byte header in this connection's byte order
/// (category, element headers, whether the recorded client's bytes are swapped, its resource
/// base, the server's time, its request's sequence), then its elements. Each element from a
/// client carries the headers the context asked for (the server's time, the request's
/// sequence), which the server writes in the recording connection's byte order, and then one
/// whole request in the recorded client's. (libXtst reads those headers in the recorded
/// client's order, which only a client of the other byte order, over TCP, would show.)
enum RecordReply {
    static let headerSize = 32

    /// What is at one place in a reply's data.
    enum Step {
        /// An element, `data` pointing into the reply; `next`: where the next one starts (nil:
        /// it was the reply's last).
        case element(XRecordInterceptData, next: Int?)
        /// An element claims more bytes than the reply holds (or the reply is shorter than its
        /// header): nothing from here on is handed over.
        case malformed
    }

    /// The element of `reply` (its header and data, `32 + 4 * length` bytes) that starts at
    /// `index` bytes into its data (0: the first).
    static func element(of reply: UnsafeRawBufferPointer, at start: Int) -> Step {
        guard reply.count >= headerSize, let base = reply.baseAddress else { return .malformed }
        let category = Int32(reply[1])
        let headers = Int32(reply[8])
        let swapped = reply[9] != 0
        let data = UnsafeRawBufferPointer(rebasing: reply[headerSize...])
        let length = min(Int(reply.loadUnaligned(fromByteOffset: 4, as: UInt32.self)) * 4, data.count)
        /// An element header, in this connection's order, at `offset` into the data.
        func header32(_ offset: Int) -> UInt32? {
            guard offset + 4 <= length else { return nil }
            return data.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        }
        /// A field of the recorded client's, at `offset` into the data.
        func field32(_ offset: Int) -> UInt32? {
            guard offset + 4 <= length else { return nil }
            let value = data.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            return swapped ? value.byteSwapped : value
        }
        func field16(_ offset: Int) -> UInt16? {
            guard offset + 2 <= length else { return nil }
            let value = data.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
            return swapped ? value.byteSwapped : value
        }
        var index = start
        var time = reply.loadUnaligned(fromByteOffset: 16, as: UInt32.self)
        var sequence = reply.loadUnaligned(fromByteOffset: 20, as: UInt32.self)
        var size = 0
        switch category {
        case XRecordFromClient:
            if headers & XRecordFromClientTime != 0 {
                guard let value = header32(index) else { return .malformed }
                time = value
                index += 4
            }
            if headers & XRecordFromClientSequence != 0 {
                guard let value = header32(index) else { return .malformed }
                sequence = value
                index += 4
            }
            // A request's length is at the same place in all of them; 0 there is a
            // BIG-REQUESTS length, in the next four bytes.
            guard let short = field16(index + 2) else { return .malformed }
            if short == 0 {
                guard let long = field32(index + 4) else { return .malformed }
                size = Int(long) * 4
            } else {
                size = Int(short) * 4
            }
            guard size >= 4 else { return .malformed }
        case XRecordClientStarted:
            // The connection's setup: its additional length at byte 6.
            guard let extra = field16(index + 6) else { return .malformed }
            size = (Int(extra) + 2) * 4
        case XRecordClientDied:
            if headers & XRecordFromClientSequence != 0, let value = header32(index) {
                sequence = value
                index += 4
            }
        default:
            // The start and end of data (no element data); replies from the server are never
            // asked for.
            break
        }
        guard index + size <= length else { return .malformed }
        let element = XRecordInterceptData(
            id_base: XID(reply.loadUnaligned(fromByteOffset: 12, as: UInt32.self)), server_time: UInt(time),
            client_seq: UInt(sequence), category: category, client_swapped: swapped ? 1 : 0,
            data: size > 0 ? UnsafeMutablePointer(mutating: base.advanced(by: headerSize + index).assumingMemoryBound(to: UInt8.self)) : nil,
            data_len: UInt(size / 4))
        // Only requests and setups come many to a reply; the other categories are one each.
        let next = index + size
        return .element(element, next: size > 0 && next < length ? next : nil)
    }
}
