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

    /// Writes a command's image output atomically, synced only when it replaces a file (a new
    /// one a crash takes was nobody's yet: `FileIO.Durability.whenReplacing`).
    static func writeAtomically(to path: String, _ body: (Int32) throws(ImagingError) -> Void) throws(ImagingError) {
        try FileIO.writeAtomically(to: path, durability: .whenReplacing, failure: ImagingError.init, body)
    }

    static func write(_ image: PixelBuffer, to path: String, as encoding: ImageEncoding) throws(CLIError) {
        do throws(ImagingError) {
            if case .png(let options) = encoding {
                // Written band by band as it is compressed: the PNG is never whole in memory.
                try writeAtomically(to: path) { (fd) throws(ImagingError) in
                    try PNGEncoder.write(image, options: options, to: fd, destination: path)
                }
                return
            }
            let bytes = try ImageCodec.encode(image, as: encoding, destination: path)
            try writeAtomically(to: path) { (fd) throws(ImagingError) in
                try ImagingError.file { () throws(FileError) in try FileDescriptor(fd, name: path).writeAll(bytes) }
            }
        } catch {
            throw .failure(error.description)
        }
    }
}

extension ParsedArguments {
    /// The output's format from `--format`, else from FILE's extension ('-' is PNG), with
    /// `--quality` where the format takes one and `--compression` for PNG. An extension that
    /// names no format is an error rather than PNG bytes under a misleading name. The formats
    /// and their names are those of `ImageFormat`.
    func imageEncoding(for output: String) throws(CLIError) -> ImageEncoding {
        let names = ImageFormat.writableNames
        let name: String
        if let given = value("format") {
            guard ImageFormat(name: given)?.isWritable == true else {
                throw .usage("--format: '\(given)' is not a format shotguard writes (expected \(String(listing: names)))")
            }
            name = given.lowercased()
        } else if output == "-" {
            name = "png"
        } else if let written = ImageFormat.fileExtension(of: output), ImageFormat(name: String(written))?.isWritable == true {
            name = written.lowercased()
        } else {
            throw .usage("-o '\(output)': the extension names no image format; end the name in "
                + String(listing: names.map { "." + $0 }) + ", or give --format " + names.joined(separator: "|"))
        }
        let format = ImageFormat(name: name) ?? .png
        let quality = try value("quality").map { text throws(CLIError) in
            guard let number = Int(text), (1...100).contains(number) else {
                throw .usage("--quality: '\(text)' is not a quality (expected a number from 1 to 100)")
            }
            return number
        }
        let lossy = ImageFormat.titles(ImageFormat.allCases.filter(\.takesQuality), last: "and")
        if format == .png {
            if quality != nil { throw .usage("--quality applies to \(lossy) output; for PNG use --compression") }
            let level = try compressionLevel(default: EncodeOptions.fast.compressionLevel)
            return .png(EncodeOptions(compressionLevel: level, filter: EncodeOptions.fast.filter))
        }
        if value("compression") != nil {
            throw .usage("--compression applies to PNG output" + (format.takesQuality ? "; for \(format.title) use --quality" : ""))
        }
        if quality != nil, !format.takesQuality {
            throw .usage("--quality applies to \(lossy) output, not to \(format.title)")
        }
        return ImageEncoding.named(name, quality: quality) ?? .png(.fast)
    }
}
