// Encodes a finished image in the chosen format and writes it atomically (or to standard output).
import ShotguardBase
import ShotguardImaging

enum ImageOutput {
    /// As PNG at zlib `compressionLevel`.
    static func write(_ image: PixelBuffer, to path: String, compressionLevel: Int) throws(CLIError) {
        try write(image, to: path, as: .png(EncodeOptions(compressionLevel: compressionLevel, filter: EncodeOptions.fast.filter)))
    }

    /// Whether a PNG may be written to `path` while its pixels still arrive (a capture in strips,
    /// a decode): a file, whose temporary copy is removed on a failure, yes; standard output,
    /// which cannot take back what a stream wrote before one, no.
    static func canStream(to path: String) -> Bool { path != "-" }

    static func write(_ image: PixelBuffer, to path: String, as encoding: ImageEncoding) throws(CLIError) {
        do throws(ImagingError) {
            if case .png(let options) = encoding {
                // Written band by band as it is compressed: the PNG is never whole in memory.
                try FileIO.writeAtomically(to: path, failure: ImagingError.init) { (fd) throws(ImagingError) in
                    try PNGEncoder.write(image, options: options, to: fd, destination: path)
                }
                return
            }
            let bytes = try ImageCodec.encode(image, as: encoding, destination: path)
            try ImagingError.file { () throws(FileError) in try FileIO.writeAtomically(bytes, to: path) }
        } catch {
            throw .failure(error.description)
        }
    }
}

extension ParsedArguments {
    /// The output's format from `--format`, else from FILE's extension ('-' is PNG), with
    /// `--quality` for JPEG and WebP and `--compression` for PNG. An extension that names no
    /// format is an error rather than PNG bytes under a misleading name.
    func imageEncoding(for output: String) throws(CLIError) -> ImageEncoding {
        let format: ImageFormat
        if let name = value("format") {
            guard let named = ImageFormat(name: name) else {
                throw .usage("--format: '\(name)' is not a format (expected png, jpeg, webp or bmp)")
            }
            format = named
        } else if output == "-" {
            format = .png
        } else if let named = ImageFormat(path: output) {
            format = named
        } else {
            throw .usage("-o '\(output)': the extension names no image format; end the name in .png, .jpg, .webp or .bmp, "
                + "or give --format png|jpeg|webp|bmp")
        }
        let quality = try value("quality").map { text throws(CLIError) in
            guard let number = Int(text), (1...100).contains(number) else {
                throw .usage("--quality: '\(text)' is not a quality (expected a number from 1 to 100)")
            }
            return number
        }
        switch format {
        case .png:
            if quality != nil { throw .usage("--quality applies to JPEG and WebP output; for PNG use --compression") }
            let level = try compressionLevel(default: EncodeOptions.fast.compressionLevel)
            return .png(EncodeOptions(compressionLevel: level, filter: EncodeOptions.fast.filter))
        case .jpeg, .webp:
            if value("compression") != nil {
                throw .usage("--compression applies to PNG output; for \(format == .jpeg ? "JPEG" : "WebP") use --quality")
            }
            return .standard(format, quality: quality)
        case .bmp:
            if quality != nil || value("compression") != nil {
                throw .usage("--quality and --compression do not apply to BMP output (24-bit, uncompressed)")
            }
            return .bmp
        }
    }
}
