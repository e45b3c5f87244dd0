// Fuzzes the band join: sg_deflate_unfinish on any bytes stays inside the capacity it is given,
// and on a whole deflate stream makes one that zlib inflates to the same bytes and that
// another band can follow; the two ways of finding a stream's end agree.
import CFuzzInflate
import CShotguardPNG
import FuzzSupport

/// The most a stream may inflate to for its checks: bigger ones are only run through the join.
private let inflatedLimit = 1 << 20

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBandJoin(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let room = Int(input.byte() % 9)  // capacity past the stream: 5 is always enough
    let stream = input.rest()
    let original = inflate(stream)

    // Whatever the bytes, the join reads and writes only its buffer (ASan), and says so.
    var joined = stream + [UInt8](repeating: 0xA5, count: room)
    var newSize = 0
    let status = sg_deflate_unfinish(&joined, stream.count, joined.count, &newSize)
    require(status == 0 || status == -1, "sg_deflate_unfinish returned \(status)")
    if status == -1 { require(joined == stream + [UInt8](repeating: 0xA5, count: room), "a refused stream was changed") }
    if status == 0 { require(newSize <= joined.count, "the joined stream (\(newSize) bytes) is past its capacity \(joined.count)") }
    var scratch = stream
    var fromBack = 0, walked = 0, header = 0
    let backStatus = sg_deflate_end_from_back(&scratch, stream.count, &fromBack)
    let walkStatus = sg_deflate_end_by_walking(&scratch, stream.count, &header, &walked)
    require(scratch == stream, "finding the end changed the stream")

    // A whole stream: its final block ends in the last byte, whose bits after it are zeros.
    guard let original, original.consumed == stream.count, let last = stream.last,
          last >> (original.end - (stream.count - 1) * 8) == 0 else { return 0 }
    let end = original.end
    require(walkStatus == 0 && walked == end, "the walk found the end at \(walked) (status \(walkStatus)), zlib at \(end)")
    if backStatus == 0 { require(fromBack == end, "the end from the back is \(fromBack), zlib says \(end)") }
    guard room >= 5 else { return 0 }
    require(status == 0, "a whole stream with \(room) bytes of room was refused")
    // The joined band, then a band that ends the stream: zlib reads both as one stream.
    let band = Array(joined[..<newSize])
    guard let twice = inflate(band + stream) else {
        return requireFalse("the joined band followed by another does not inflate")
    }
    require(twice.bytes == original.bytes + original.bytes, "the joined bands inflate to other bytes")
    guard let closed = inflate(band + [0x03, 0x00]) else {
        return requireFalse("the joined band, closed by an empty final block, does not inflate")
    }
    require(closed.bytes == original.bytes, "the joined band inflates to other bytes")
    return 0
}

private func requireFalse(_ message: String) -> Int32 {
    require(false, message)
    return 0
}

/// zlib's reading of a raw deflate stream: its bytes, how much input it read and the bit after
/// its end; nil when the stream is invalid, unfinished or inflates too large.
private func inflate(_ stream: [UInt8]) -> (bytes: [UInt8], consumed: Int, end: Int)? {
    var out = [UInt8](repeating: 0, count: inflatedLimit)
    var produced = 0, consumed = 0, end = 0
    guard fuzz_inflate_raw(stream, stream.count, &out, out.count, &produced, &consumed, &end) == 1 else { return nil }
    return (Array(out[..<produced]), consumed, end)
}
