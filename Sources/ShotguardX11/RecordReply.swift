// Splits one reply of RECORD's EnableContext into its protocol elements, as libXtst would hand them over.
import CX11

/// One reply of an enabled RECORD context: a 32-byte header in this connection's byte order
/// (category, element headers, whether the recorded client's bytes are swapped, its resource
/// base, the server's time, its request's sequence), then its elements. Each element from a
/// client carries the headers the context asked for (the server's time, the request's
/// sequence, in the recorded client's byte order) and then one whole request.
enum RecordReply {
    static let headerSize = 32

    /// Calls `body` with each element of `reply` (its header and data, `32 + 4 * length`
    /// bytes), `data` pointing into `reply`. False when an element claims more bytes than the
    /// reply holds: what came before it was handed over, the rest is dropped.
    static func elements(of reply: UnsafeRawBufferPointer, _ body: (XRecordInterceptData) -> Void) -> Bool {
        guard reply.count >= headerSize, let base = reply.baseAddress else { return false }
        let category = Int32(reply[1])
        let headers = Int32(reply[8])
        let swapped = reply[9] != 0
        let idBase = reply.loadUnaligned(fromByteOffset: 12, as: UInt32.self)
        let serverTime = reply.loadUnaligned(fromByteOffset: 16, as: UInt32.self)
        let sequence = reply.loadUnaligned(fromByteOffset: 20, as: UInt32.self)
        let data = UnsafeRawBufferPointer(rebasing: reply[headerSize...])
        let length = min(Int(reply.loadUnaligned(fromByteOffset: 4, as: UInt32.self)) * 4, data.count)
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
        var index = 0
        repeat {
            var time = serverTime, clientSequence = sequence
            var size = 0
            switch category {
            case XRecordFromClient:
                if headers & XRecordFromClientTime != 0 {
                    guard let value = field32(index) else { return false }
                    time = value
                    index += 4
                }
                if headers & XRecordFromClientSequence != 0 {
                    guard let value = field32(index) else { return false }
                    clientSequence = value
                    index += 4
                }
                // A request's length is at the same place in all of them; 0 there is a
                // BIG-REQUESTS length, in the next four bytes.
                guard let short = field16(index + 2) else { return false }
                if short == 0 {
                    guard let long = field32(index + 4) else { return false }
                    size = Int(long) * 4
                } else {
                    size = Int(short) * 4
                }
                guard size >= 4 else { return false }
            case XRecordClientStarted:
                // The connection's setup: its additional length at byte 6.
                guard let extra = field16(index + 6) else { return false }
                size = (Int(extra) + 2) * 4
            case XRecordClientDied:
                if headers & XRecordFromClientSequence != 0, let value = field32(index) {
                    clientSequence = value
                    index += 4
                }
            case XRecordFromServer:
                // Never asked for: skipped whole.
                return true
            default:
                break
            }
            guard index + size <= length else { return false }
            let element = XRecordInterceptData(
                id_base: XID(idBase), server_time: UInt(time), client_seq: UInt(clientSequence), category: category,
                client_swapped: swapped ? 1 : 0,
                data: size > 0 ? UnsafeMutablePointer(mutating: base.advanced(by: headerSize + index).assumingMemoryBound(to: UInt8.self)) : nil,
                data_len: UInt(size / 4))
            body(element)
            // Only requests and setups come many to a reply; the other categories are one each.
            guard size > 0 else { return true }
            index += size
        } while index < length
        return true
    }
}
