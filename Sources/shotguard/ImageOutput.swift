// Encodes a finished image and writes it atomically (or to standard output for '-').
import ShotguardImaging

enum ImageOutput {
    static func write(_ image: PixelBuffer, to path: String, compressionLevel: Int) throws(CLIError) {
        do throws(ImagingError) {
            let options = EncodeOptions(compressionLevel: compressionLevel, filter: EncodeOptions.fast.filter)
            let png = try PNGEncoder.encode(image, options: options, destination: path)
            try FileIO.writeAtomically(png, to: path)
        } catch {
            throw .failure(error.description)
        }
    }
}
