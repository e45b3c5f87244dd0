// The PNG shim's return codes (SG_PNG_* in shotguard_png.h) as imaging errors.
import CShotguardPNG

extension ImagingError {
    /// The error for a CShotguardPNG entry point's failure `code`: `.bufferSize` when the memory
    /// it was handed does not hold the rows, `.tooLarge` when there was no memory for the work,
    /// `otherwise` for the rest (corrupt data, a failed write). `message` is the C side's
    /// NUL-terminated message, if any, said after `doing`.
    init(pngStatus code: Int32, source: String, _ doing: String, _ message: [CChar], otherwise: Kind) {
        let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let kind: Kind = switch Int(code) {
        case SG_PNG_BAD_BUFFER: .bufferSize
        case SG_PNG_NO_MEMORY: .tooLarge
        default: otherwise
        }
        let fallback = switch kind {
        case .bufferSize: "the memory handed to it does not hold the image's rows"
        case .tooLarge: "no memory for the work"
        case .corrupt: "corrupt PNG data (its chunks are not what they say, or not what was probed)"
        default: "it failed"
        }
        self.init(kind, source: source, "\(doing): \(reason.isEmpty ? fallback : reason)")
    }
}
