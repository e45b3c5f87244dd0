// The registry's view of PNG, JPEG, WebP and BMP, whose codecs came before it.

enum PNGFile: ImageFileCodec {
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 8 && zip(bytes.prefix(8), PNGChunks.signature).allSatisfy { $0 == $1 }
    }

    static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool {
        do { return try PNGChunks(bytes, source: "").isComplete } catch { return false }  // not a PNG: not complete
    }

    static func read(_ data: [UInt8], source: String, limits: DecodeLimits) throws(ImagingError) -> DecodedImage {
        DecodedImage(image: try PNGDecoder.decode(data, source: source, limits: limits), format: .png)
    }

    static func encoding(named name: String, quality: Int?) -> ImageEncoding? { .png(.fast) }
    static func encoding(matching original: [UInt8]) -> ImageEncoding? { .png(.fast) }
}

enum JPEGFile: ImageFileCodec {
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF
    }

    static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool { JPEGMarkers.endsWithEOI(bytes) }

    static func read(_ data: [UInt8], source: String, limits: DecodeLimits) throws(ImagingError) -> DecodedImage {
        DecodedImage(image: try JPEGDecoder.decode(data, source: source, limits: limits), format: .jpeg, isLossy: true)
    }

    static var takesQuality: Bool { true }

    static func encoding(named name: String, quality: Int?) -> ImageEncoding? {
        .jpeg(JPEGOptions(quality: quality ?? JPEGOptions.standard.quality))
    }

    static func encoding(matching original: [UInt8]) -> ImageEncoding? {
        .jpeg(JPEGOptions(quality: JPEGQuality.estimate(original) ?? JPEGQuality.fallback,
                          fullChroma: JPEGDecoder.isFullChroma(original)))
    }
}

enum WebPFile: ImageFileCodec {
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 12 && bytes[0..<4].elementsEqual("RIFF".utf8) && bytes[8..<12].elementsEqual("WEBP".utf8)
    }

    static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard hasSignature(bytes) else { return false }
        let size = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        return bytes.count >= 8 + size
    }

    static func read(_ data: [UInt8], source: String, limits: DecodeLimits) throws(ImagingError) -> DecodedImage {
        DecodedImage(image: try WebPCodec.decode(data, source: source, limits: limits), format: .webp,
                     isLossy: !WebPCodec.isLossless(data))
    }

    static var takesQuality: Bool { true }

    static func encoding(named name: String, quality: Int?) -> ImageEncoding? {
        .webp(WebPOptions(quality: quality ?? WebPOptions.standard.quality))
    }

    static func encoding(matching original: [UInt8]) -> ImageEncoding? {
        .webp(WebPOptions(quality: WebPOptions.standard.quality, lossless: WebPCodec.isLossless(original)))
    }
}

enum BMPFile: ImageFileCodec {
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool { BMPCodec.hasSignature(bytes) }
    static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool { BMPCodec.isComplete(bytes) }

    static func read(_ data: [UInt8], source: String, limits: DecodeLimits) throws(ImagingError) -> DecodedImage {
        DecodedImage(image: try BMPCodec.decode(data, source: source, limits: limits), format: .bmp)
    }

    static func encoding(named name: String, quality: Int?) -> ImageEncoding? { .bmp }
    static func encoding(matching original: [UInt8]) -> ImageEncoding? { .bmp }
}
