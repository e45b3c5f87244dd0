// Fuzzes the window property decoders on values any client can set: nothing traps, nonsense is absent.
import FuzzSupport
import ShotguardImaging
import ShotguardX11

/// Input: a byte choosing the format (8, 16, 32 or a bad one), a 16-bit item count as Xlib
/// would report it and a requested length, then Xlib's buffer. Format-32 items are C longs,
/// which the fuzzer fills with anything, not only sign-extended 32-bit values. Every decoder
/// then reads the value, as `Display` and the XCB window batch do.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProperties(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let format = Int32([8, 16, 32, 0, 64, -32][Int(input.byte()) % 6])
    let count = UInt(input.uint16())
    let requestedUnits = input.int(in: -1...4096)
    let frame = (x: Int64(Int32(bitPattern: input.uint32())), y: Int64(Int32(bitPattern: input.uint32())),
                 width: Int64(Int32(bitPattern: input.uint32())), height: Int64(Int32(bitPattern: input.uint32())))
    let buffer = input.rest()

    guard let size = PropertyDecoding.xlibBufferSize(format: format, count: count, requestedUnits: requestedUnits) else {
        require(![8, 16, 32].contains(format) || count > UInt(max(requestedUnits, 0)) * UInt(32 / Int(format)),
                "\(count) items of format \(format) in \(requestedUnits) units were refused")
        checkWire(buffer, frame: frame)
        return 0
    }
    require(size == Int(count) * (format == 32 ? 8 : Int(format) / 8), "\(count) items of format \(format) take \(size) bytes")
    // Xlib's buffer always holds what it reports; a shorter fuzz input cannot stand for one.
    guard size <= buffer.count else {
        checkWire(buffer, frame: frame)
        return 0
    }
    let value = buffer.withUnsafeBytes { PropertyDecoding.xlibValue(format: format, buffer: UnsafeRawBufferPointer(rebasing: $0[..<size])) }
    guard let value else {
        require(false, "a reply of format \(format) was refused after its size was accepted")
        return 0
    }
    if format == 32 {
        require(value.items.count == Int(count) && value.bytes.count == 4 * Int(count),
                "\(count) longs gave \(value.items.count) values and \(value.bytes.count) bytes")
        for (index, item) in value.items.enumerated() {
            var long = 0
            for shift in 0..<8 { long |= Int(buffer[index * 8 + shift]) << (8 * shift) }
            require(item == UInt32(truncatingIfNeeded: long), "value \(index) is \(item), its long is \(long)")
        }
        require(PropertyDecoding.cardinals(fromBytes: value.bytes) == value.items, "the bytes of the values read back otherwise")
        checkCardinals(value.items, frame: frame)
    } else {
        require(value.items.isEmpty && value.bytes == Array(buffer[..<size]), "format \(format) bytes changed")
        checkText(value.bytes)
    }
    return 0
}

/// The same bytes as the XCB batch reads them: format-32 values and format-8 text.
private func checkWire(_ bytes: [UInt8], frame: (x: Int64, y: Int64, width: Int64, height: Int64)) {
    let values = PropertyDecoding.cardinals(fromBytes: bytes)
    require(values.count == bytes.count / 4, "\(bytes.count) bytes gave \(values.count) values")
    checkCardinals(values, frame: frame)
    checkText(bytes)
}

/// Format-32 values as a window list, an active window, and frame extents around a window.
private func checkCardinals(_ values: [UInt32], frame: (x: Int64, y: Int64, width: Int64, height: Int64)) {
    let windows = PropertyDecoding.windowList(values)
    require(windows.count <= PropertyDecoding.maximumWindows, "\(windows.count) windows listed")
    require(Set(windows).count == windows.count, "a window is listed twice")
    require(windows.allSatisfy(PropertyDecoding.isWindowID), "a listed id cannot be a window")
    if let active = PropertyDecoding.window(values) {
        require(active == values.first && PropertyDecoding.isWindowID(active), "active window \(active) from \(values.prefix(1))")
    }
    let extents = PropertyDecoding.frameExtents(values)
    if let extents {
        require(values.count == 4, "\(values.count) values read as frame extents")
        require([extents.left, extents.right, extents.top, extents.bottom].allSatisfy { (0...PropertyDecoding.maximumExtent).contains($0) },
                "frame extents \(extents) out of range")
    } else {
        require(values.count != 4 || values.contains { $0 > UInt32(PropertyDecoding.maximumExtent) },
                "frame extents \(values) were refused")
    }
    guard let rect = PropertyDecoding.rect(x: frame.x, y: frame.y, width: frame.width, height: frame.height) else {
        let range = Int64(PropertyDecoding.coordinateRange.lowerBound)...Int64(PropertyDecoding.coordinateRange.upperBound)
        require(!range.contains(frame.x) || !range.contains(frame.y) || !(0...range.upperBound).contains(frame.width)
                || !(0...range.upperBound).contains(frame.height) || frame.x + frame.width > 2 * range.upperBound
                || frame.y + frame.height > 2 * range.upperBound, "geometry \(frame) was refused")
        return
    }
    checkInCoordinates(rect)
    if let outer = PropertyDecoding.outerFrame(rect, extents: extents ?? .none) {
        checkInCoordinates(outer)
        require(outer.x <= rect.x && outer.y <= rect.y && outer.maxX >= rect.maxX && outer.maxY >= rect.maxY,
                "outer frame \(outer) does not surround \(rect)")
    }
}

private func checkInCoordinates(_ rect: Rect) {
    let range = PropertyDecoding.coordinateRange
    require(range.contains(rect.x) && range.contains(rect.y) && (0...range.upperBound).contains(rect.width)
            && (0...range.upperBound).contains(rect.height), "rectangle \(rect) outside X's coordinates")
}

/// Format-8 bytes as a UTF-8 title, a Latin-1 title and `WM_CLASS`.
private func checkText(_ bytes: [UInt8]) {
    let utf8 = PropertyDecoding.utf8Text(bytes)
    require(utf8.utf8.count <= PropertyDecoding.maximumTextBytes, "a title of \(utf8.utf8.count) bytes")
    require(!utf8.unicodeScalars.contains("\0"), "a title holds a NUL")
    let latin1 = PropertyDecoding.latin1Text(bytes)
    require(latin1.unicodeScalars.count <= PropertyDecoding.maximumTextBytes, "a Latin-1 title of \(latin1.unicodeScalars.count) characters")
    require(latin1.unicodeScalars.allSatisfy { $0.value > 0 && $0.value < 256 }, "a Latin-1 title holds \(latin1.debugDescription)")
    let hint = PropertyDecoding.wmClass(bytes)
    for part in [hint.instance, hint.className] {
        require(part.utf8.count <= PropertyDecoding.maximumTextBytes && !part.unicodeScalars.contains("\0"),
                "a WM_CLASS half of \(part.utf8.count) bytes")
    }
}
