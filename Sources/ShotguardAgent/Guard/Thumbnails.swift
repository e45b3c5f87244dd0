// Deletes the freedesktop thumbnails of a rewritten file, so viewers rebuild them from the redacted pixels.
import Glibc
import ShotguardBase

/// The thumbnail cache of the freedesktop Thumbnail Managing Standard: `$XDG_CACHE_HOME/thumbnails`
/// (else `~/.cache/thumbnails`), one PNG per file per size, named by the MD5 of the file's URI.
struct Thumbnails {
    let folder: String

    static let sizes = ["normal", "large", "x-large", "xx-large"]

    init(folder: String? = nil) {
        if let folder {
            self.folder = folder
        } else {
            self.folder = XDGPaths.cacheHome() + "/thumbnails"
        }
    }

    /// `file://` and the absolute path, percent-encoded as GLib's `g_filename_to_uri` does it
    /// (thumbnailers name files by that exact string): bytes other than letters, digits and
    /// ``!$&'()*+,-./:=@_~`` become `%XX` with uppercase hex digits.
    static func uri(forPath path: [UInt8]) -> String {
        let kept = Set(Array("!$&'()*+,-./:=@_~".utf8))
        var text = "file://"
        let digits = Array("0123456789ABCDEF")
        for byte in path {
            let isAlphanumeric = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            if isAlphanumeric || kept.contains(byte) {
                text.append(Character(Unicode.Scalar(byte)))
            } else {
                text += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
            }
        }
        return text
    }

    /// Every place a thumbnail of `path` may sit: each size, and each failure folder.
    func candidates(forPath path: [UInt8]) -> [String] {
        let name = md5Hex(Array(Self.uri(forPath: path).utf8)) + ".png"
        var paths = Self.sizes.map { "\(folder)/\($0)/\(name)" }
        if let failures = opendir(folder + "/fail") {
            defer { closedir(failures) }
            while let entry = readdir(failures) {
                let app = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if app != ".", app != ".." { paths.append("\(folder)/fail/\(app)/\(name)") }
            }
        }
        return paths
    }

    /// Removes the thumbnails of `path`; returns how many there were.
    @discardableResult
    func remove(forPath path: [UInt8]) -> Int {
        candidates(forPath: path).reduce(0) { count, thumbnail in unlink(thumbnail) == 0 ? count + 1 : count }
    }
}
