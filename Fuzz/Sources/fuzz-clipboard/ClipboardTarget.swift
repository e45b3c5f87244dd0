// Fuzzes the clipboard transfer's byte work: TARGETS lists and INCR reassembly under its size cap.
import FuzzSupport
import ShotguardX11

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClipboard(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    if input.byte() & 1 == 0 {
        checkTargets(&input)
    } else {
        checkIncremental(&input)
    }
    return 0
}

/// A TARGETS reply in any format and length: format 32 gives one atom per whole 4 bytes,
/// each the little-endian value of its bytes; other formats give none.
private func checkTargets(_ input: inout FuzzInput) {
    let format = [8, 16, 32, 0, 7][Int(input.byte()) % 5]
    let bytes = input.rest()
    guard let atoms = ClipboardAssembly.targets(in: bytes, format: Int32(format)) else {
        require(format != 32, "a format-32 reply of \(bytes.count) bytes was refused")
        return
    }
    require(format == 32, "a format-\(format) reply was read as atoms")
    require(atoms.count == bytes.count / 4, "\(bytes.count) bytes gave \(atoms.count) atoms")
    for (index, atom) in atoms.enumerated() {
        var expected: UInt = 0
        for shift in 0..<4 { expected |= UInt(bytes[index * 4 + shift]) << (8 * shift) }
        require(atom == expected, "atom \(index) is \(atom), its bytes say \(expected)")
    }
}

/// A run of INCR chunks against a small cap: the data is the chunks joined in order up to the
/// empty chunk, a chunk that would pass the cap is refused, and nothing past the cap is kept.
private func checkIncremental(_ input: inout FuzzInput) {
    let limit = input.int(in: 0...1024)
    var transfer = IncrementalData(limit: limit)
    var joined: [UInt8] = []
    while !input.isAtEnd {
        let chunk = input.chunk()
        let progress = transfer.add(chunk)
        require(transfer.data.count <= limit, "\(transfer.data.count) bytes kept under a cap of \(limit)")
        switch progress {
        case .complete:
            require(chunk.isEmpty, "a chunk of \(chunk.count) bytes ended the transfer")
            require(transfer.data == joined, "the joined data differs from the chunks sent")
            return
        case .tooLarge:
            require(joined.count + chunk.count > limit,
                    "a chunk of \(chunk.count) after \(joined.count) bytes was refused under a cap of \(limit)")
            require(transfer.data == joined, "a refused chunk changed the data")
            return
        case .needsMore:
            require(!chunk.isEmpty, "the empty chunk did not end the transfer")
            joined += chunk
            require(transfer.data == joined, "the joined data differs from the chunks sent")
        }
    }
}
