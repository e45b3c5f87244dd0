// Reads an image/png from the CLIPBOARD selection, including the INCR protocol for large ones.
import CX11

/// One transfer from the clipboard's owner: TARGETS first, then `image/png` when offered.
/// Driven by the X events the agent's loop hands to `DesktopEvents`; never blocks.
final class ClipboardFetch {
    enum Step { case targets, data, incremental }

    let owner: Window
    let timestamp: Time
    private(set) var step = Step.targets
    private(set) var deadline: Double
    private var received: [UInt8] = []

    static let timeout = 2.0
    static let maximumSize = 64 * 1024 * 1024

    init(owner: Window, timestamp: Time, now: Double) {
        self.owner = owner
        self.timestamp = timestamp
        deadline = now + Self.timeout
    }

    func progressed(now: Double, to step: Step? = nil) {
        deadline = now + Self.timeout
        if let step { self.step = step }
    }

    func append(_ bytes: [UInt8]) -> Bool {
        received += bytes
        return received.count <= Self.maximumSize
    }

    var data: [UInt8] { received }
}

extension Display {
    /// A whole property of `window` (read in pieces), deleting it afterwards; nil when absent.
    func takeProperty(_ property: Atom, of window: Window) -> (type: Atom, format: Int32, bytes: [UInt8])? {
        var bytes: [UInt8] = []
        var offset = 0
        var resultType: Atom = 0
        var resultFormat: Int32 = 0
        while true {
            var type: Atom = 0
            var format: Int32 = 0
            var count: UInt = 0
            var remaining: UInt = 0
            var data: UnsafeMutablePointer<UInt8>?
            let (status, error) = trap {
                XGetWindowProperty(handle, window, property, offset / 4, 1 << 20, 0, Atom(AnyPropertyType),
                                   &type, &format, &count, &remaining, &data)
            }
            guard status == Success, error == nil, type != 0 else {
                if let data { XFree(data) }
                return offset == 0 ? nil : (resultType, resultFormat, bytes)
            }
            let itemSize = format == 32 ? MemoryLayout<UInt>.size : Int(format) / 8
            if let data {
                if format == 32 {
                    // Format-32 items arrive as C longs; keep their low 32 bits, as sent.
                    data.withMemoryRebound(to: UInt.self, capacity: Int(count)) { items in
                        for index in 0..<Int(count) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: items[index]).littleEndian) { bytes += $0 } }
                    }
                } else {
                    bytes += UnsafeBufferPointer(start: data, count: Int(count) * itemSize)
                }
                XFree(data)
            }
            resultType = type
            resultFormat = format
            offset += Int(count) * (format == 32 ? 4 : itemSize)
            if remaining == 0 { break }
        }
        XDeleteProperty(handle, window, property)
        return (resultType, resultFormat, bytes)
    }
}
