// GIF through giflib (error codes, no longjmp): one frame read, written with its palette kept.
import CShotguardGIF

/// How a GIF is written. A redacted copy keeps the original's palette: colours the redaction
/// brought in are added while the palette has room, and otherwise drawn as the nearest colour
/// of the palette (a fill stays one flat colour, a mosaic stays blocks). A new GIF, which has
/// no palette, gets the image's own colours, or giflib's median-cut quantisation beyond 256.
public struct GIFOptions: FormatSettings, Equatable {
    /// The palette to keep, 0xRRGGBB; empty for a new palette.
    public var palette: [UInt32]
    /// The palette index that stands for transparency, kept from the original.
    public var transparentIndex: Int?
    public var interlaced: Bool

    public init(palette: [UInt32] = [], transparentIndex: Int? = nil, interlaced: Bool = false) {
        self.palette = palette
        self.transparentIndex = transparentIndex
        self.interlaced = interlaced
    }

    public var format: ImageFormat { .gif }

    public func encode(_ image: PixelBuffer, destination: String) throws(ImagingError) -> [UInt8] {
        try GIFCodec.encode(image, options: self, destination: destination)
    }
}

public enum GIFCodec: ImageFileCodec {
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool { GIFStructure.hasSignature(bytes) }
    static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool { GIFStructure(bytes)?.isComplete ?? false }

    static func read(_ data: [UInt8], source: String, limits: DecodeLimits) throws(ImagingError) -> DecodedImage {
        DecodedImage(image: try decode(data, source: source, limits: limits), format: .gif)
    }

    /// Decodes a still GIF: its one frame on the logical screen, transparent where the frame
    /// does not reach or its transparent index is. An animation (more than one frame) is an
    /// error: guard cannot know which protected areas each later frame showed, so it is set
    /// aside whole rather than rewritten as one frame.
    public static func decode(_ data: [UInt8], source: String, limits: DecodeLimits = .standard) throws(ImagingError) -> PixelBuffer {
        try limits.checkInput(data, source: source)
        guard let structure = data.withUnsafeBytes({ GIFStructure($0) }) else {
            throw ImagingError(data.count >= 6 && GIFStructure.hasSignature(data.withUnsafeBytes { $0 }) ? .truncated : .unknownFormat,
                               source: source, "not a whole GIF (no GIF87a/GIF89a signature and screen descriptor)")
        }
        guard structure.isComplete else {
            throw ImagingError(.truncated, source: source, "GIF is cut short or broken (its blocks do not reach the trailer)")
        }
        guard structure.frames == 1 else {
            throw ImagingError(structure.frames == 0 ? .corrupt : .unknownFormat, source: source, structure.frames == 0
                ? "GIF holds no image" : "animated GIF (\(structure.frames) frames): only single-frame GIFs are read")
        }
        if let reason = limits.exceeded(width: structure.width, height: structure.height) {
            throw ImagingError(.tooLarge, source: source, reason)
        }
        guard structure.width > 0, structure.height > 0 else {
            throw ImagingError(.corrupt, source: source, "GIF says it is \(structure.width)x\(structure.height) pixels")
        }
        let result = data.withUnsafeBufferPointer { bytes in
            Result { () throws(ImagingError) in try decodeFrame(bytes, structure: structure, source: source, limits: limits) }
        }
        return try result.get()
    }

    private static func decodeFrame(_ bytes: UnsafeBufferPointer<UInt8>, structure: GIFStructure, source: String,
                                    limits: DecodeLimits) throws(ImagingError) -> PixelBuffer {
        var error: Int32 = 0
        guard let gif = sg_gif_open_read(bytes.baseAddress, bytes.count, &error) else {
            throw ImagingError(.corrupt, source: source, "not a GIF giflib reads: \(message(error))")
        }
        defer { sg_gif_close_read(gif) }
        func failed(_ what: String) -> ImagingError {
            ImagingError(.corrupt, source: source, "GIF \(what): \(message(gif.pointee.Error))")
        }
        var record = UNDEFINED_RECORD_TYPE
        while true {
            guard DGifGetRecordType(gif, &record) == GIF_OK else { throw failed("has a broken block") }
            if record == EXTENSION_RECORD_TYPE {
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw failed("has a broken extension") }
                while block != nil {
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw failed("has a broken extension") }
                }
            } else if record == IMAGE_DESC_RECORD_TYPE {
                break
            } else {
                throw ImagingError(.corrupt, source: source, "GIF ends before its image")
            }
        }
        guard DGifGetImageDesc(gif) == GIF_OK else { throw failed("has a broken image descriptor") }
        let frame = gif.pointee.Image
        let (left, top, width, height) = (Int(frame.Left), Int(frame.Top), Int(frame.Width), Int(frame.Height))
        // LZW packs up to thousands of pixels a byte: a frame larger than the limits would cost
        // their time to decode even where the screen clips it.
        guard width > 0, height > 0, limits.exceeded(width: width, height: height) == nil else {
            throw ImagingError(.corrupt, source: source, "GIF's frame is \(width)x\(height) pixels")
        }
        guard let map = frame.ColorMap ?? gif.pointee.SColorMap, map.pointee.ColorCount > 0, let colours = map.pointee.Colors else {
            throw ImagingError(.corrupt, source: source, "GIF has no colour table for its image")
        }
        var palette = (0..<Int(map.pointee.ColorCount)).map { index -> UInt32 in
            let colour = colours[index]
            return 0xFF00_0000 | UInt32(colour.Red) << 16 | UInt32(colour.Green) << 8 | UInt32(colour.Blue)
        }
        if let transparent = structure.transparentIndex, transparent < palette.count { palette[transparent] = 0 }
        // An index beyond the table (allowed by the format, used by broken writers) is black.
        palette += [UInt32](repeating: 0xFF00_0000, count: 256 - palette.count)

        var pixels = [UInt32](repeating: 0, count: structure.width * structure.height)
        var line = [GifByteType](repeating: 0, count: max(width, 1))
        for row in rowOrder(height: height, interlaced: frame.Interlace) {
            guard DGifGetLine(gif, &line, Int32(width)) == GIF_OK else { throw failed("image data is broken") }
            let y = top + row
            guard y < structure.height else { continue }
            for column in 0..<width where left + column < structure.width {
                pixels[y * structure.width + left + column] = palette[Int(line[column])]
            }
        }
        let transparent = pixels.contains { $0 >> 24 != 0xFF }
        return PixelBuffer(width: structure.width, height: structure.height, pixels: pixels, hasAlpha: transparent)
    }

    /// The rows in the order the file holds them: top to bottom, or in an interlaced image's four passes.
    static func rowOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: height, by: step)) }
    }

    static func message(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    }

    static func encoding(named name: String, quality: Int?) -> ImageEncoding? { .settings(GIFOptions()) }

    static func encoding(matching original: [UInt8]) -> ImageEncoding? {
        guard let structure = original.withUnsafeBytes({ GIFStructure($0) }) else { return .settings(GIFOptions()) }
        return .settings(GIFOptions(palette: structure.palette ?? [], transparentIndex: structure.transparentIndex,
                                    interlaced: structure.interlaced))
    }

    /// `image` as a single-frame GIF (GIF89a when it has transparency), with no comment or
    /// application extension; pixels with alpha below half are transparent.
    public static func encode(_ image: PixelBuffer, options: GIFOptions, destination: String) throws(ImagingError) -> [UInt8] {
        guard image.width > 0, image.height > 0, image.width <= 65535, image.height <= 65535 else {
            throw ImagingError(.encode, source: destination, "cannot write a \(image.width)x\(image.height) image as GIF "
                + "(at most 65535 pixels each way)")
        }
        let indexed = try GIFPalette.index(image, options: options, destination: destination)
        var error: Int32 = 0
        var output: OpaquePointer?
        guard let gif = sg_gif_open_write(&output, &error), let output else {
            throw ImagingError(.encode, source: destination, "cannot start a GIF: \(message(error))")
        }
        var colours = indexed.palette.map { GifColorType(Red: UInt8($0 >> 16 & 0xFF), Green: UInt8($0 >> 8 & 0xFF), Blue: UInt8($0 & 0xFF)) }
        let map = GifMakeMapObject(Int32(colours.count), &colours)
        defer { GifFreeMapObject(map) }
        EGifSetGifVersion(gif, indexed.transparentIndex != nil)
        var ok = map != nil && EGifPutScreenDesc(gif, Int32(image.width), Int32(image.height), 8, 0, map) == GIF_OK
        if ok, let transparent = indexed.transparentIndex {
            var control: [UInt8] = [1, 0, 0, UInt8(transparent)]
            ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, &control) == GIF_OK
        }
        ok = ok && EGifPutImageDesc(gif, 0, 0, Int32(image.width), Int32(image.height), options.interlaced, nil) == GIF_OK
        var row = [GifByteType](repeating: 0, count: image.width)
        for y in rowOrder(height: image.height, interlaced: options.interlaced) where ok {
            for x in 0..<image.width { row[x] = indexed.indices[y * image.width + x] }
            ok = EGifPutLine(gif, &row, Int32(image.width)) == GIF_OK
        }
        let failure = ok ? 0 : gif.pointee.Error
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        let closed = sg_gif_close_write(gif, output, &bytes, &length)
        defer { if let bytes { sg_gif_free(bytes) } }
        // A step that failed without a code (no colour map) still fails: the file is not whole.
        guard ok, closed == 0, let bytes else {
            let code = failure != 0 ? failure : closed
            throw ImagingError(.encode, source: destination, "cannot write GIF: \(code != 0 ? message(code) : "out of memory")")
        }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }
}
