// How a redacted rectangle is covered: a solid colour, or a block mosaic.
import ShotguardBase

/// The cover for a redacted rectangle.
public enum Fill: Hashable, Sendable, CustomStringConvertible {
    /// Every pixel set to this colour (0xRRGGBB). The safe choice.
    case solid(UInt32)
    /// A block mosaic with blocks of `blockSize` pixels. Weaker than a solid fill: mosaics of
    /// text can sometimes be reversed, so use it only where that risk is acceptable.
    case pixelate(blockSize: Int)

    public static let black = Fill.solid(0x000000)
    public static let defaultBlockSize = 16

    public var description: String {
        switch self {
        case .solid(0x000000): return "black"
        case .solid(let rgb): return "#" + String(rgb, radix: 16).leftPadded(to: 6)
        case .pixelate(let size): return "pixelate:\(size)"
        }
    }

    /// The forms `parse` accepts, for error messages.
    public static let expectedForms = "black, #rrggbb or pixelate[:N]"

    /// Parses `black`, `#rrggbb` or `pixelate[:N]` with N ≥ 2.
    public static func parse(_ text: String) throws(FillSyntaxError) -> Fill {
        if text == "black" { return .black }
        if text.hasPrefix("#") {
            // Six hex digits and nothing else: UInt32(_:radix:) alone would take "+12345".
            let hex = text.utf8.dropFirst()
            guard hex.count == 6, hex.allSatisfy(isHexDigit), let rgb = UInt32(String(text.dropFirst()), radix: 16) else {
                throw FillSyntaxError(message: "bad colour '\(text.excerpt())' (expected #rrggbb, e.g. #1e1e1e)", offset: 0)
            }
            return .solid(rgb)
        }
        if text == "pixelate" { return .pixelate(blockSize: defaultBlockSize) }
        if text.hasPrefix("pixelate:") {
            let number = text.dropFirst("pixelate:".count)
            guard number.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let size = Int(number), size >= 2, size <= 4096 else {
                throw FillSyntaxError(
                    message: "bad block size '\(String(number).excerpt())' (expected pixelate:N with N from 2 to 4096)",
                    offset: "pixelate:".count)
            }
            return .pixelate(blockSize: size)
        }
        throw FillSyntaxError(message: "unknown fill '\(text.excerpt())' (expected \(expectedForms))", offset: 0)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}

/// A fill that does not parse; `offset` is the 0-based position of the trouble in the text.
public struct FillSyntaxError: Error, Equatable, Sendable {
    public var message: String
    public var offset: Int
}

