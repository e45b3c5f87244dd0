// Decides whether a new file is a screenshot: name, folder, age, completeness, ownership.
import Glibc
import ShotguardImaging

/// A new image file that may be a screenshot.
struct ScreenshotFile {
    enum Strength: String { case strong, weak }

    let path: String
    let strength: Strength
    /// The file's bytes when it is a complete PNG, JPEG or WebP; nil for other image formats.
    let png: [UInt8]?
    let modified: Double
}

enum ScreenshotFileClassifier {
    /// Words that screenshot tools put in file names, in some of the languages GNOME and KDE
    /// translate them into. A weak signal on its own: tools differ and some use no word at all.
    static let keywords = [
        "screenshot", "screen shot", "scrot", "maim", "flameshot", "ksnip", "spectacle", "shutter",
        "bildschirmfoto", "captura", "capture d", "schermata", "zrzut ekranu", "skärmbild", "schermafbeelding",
        "снимок экрана", "スクリーンショット", "屏幕截图",
    ]
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "webp", "bmp"]
    static let maximumSize = 64 * 1024 * 1024
    static let maximumAge = 5.0

    /// Whether `name` could be an image a tool just wrote (not hidden, not a temporary file).
    static func looksLikeImage(_ name: String) -> Bool {
        guard !name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    static func isStronglyNamed(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        let name = parts.last.map { $0.lowercased() } ?? ""
        let folder = parts.dropLast().last.map { $0.lowercased() } ?? ""
        return folder == "screenshots" || keywords.contains { name.contains($0) }
    }

    /// The file as a screenshot candidate, or why it is not one. Opens without following a
    /// symlink and checks the open file itself, so a swapped path cannot slip through.
    static func classify(_ path: String, now: Double) -> Result<ScreenshotFile, SkipReason> {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard looksLikeImage(name) else { return .failure(.notAnImage) }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(errno == ELOOP ? .symlink : .unreadable(errnoText())) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular) }
        guard status.st_uid == getuid() else { return .failure(.notOwned) }
        guard Int(status.st_size) <= maximumSize else { return .failure(.tooLarge) }
        let modified = seconds(status.st_mtim)
        guard now - modified <= maximumAge else { return .failure(.old) }
        let strength: ScreenshotFile.Strength = isStronglyNamed(path) ? .strong : .weak
        guard let bytes = try? FileIO.read(fd: fd, name: path, limit: maximumSize) else { return .failure(.unreadable("read failed")) }
        // PNG, JPEG and WebP are read by their bytes; other formats (BMP) are not.
        guard let format = ImageFormat.sniff(bytes) else {
            return .success(ScreenshotFile(path: path, strength: strength, png: nil, modified: modified))
        }
        guard format.isComplete(bytes) else { return .failure(.incomplete) }
        return .success(ScreenshotFile(path: path, strength: strength, png: bytes, modified: modified))
    }

    enum SkipReason: Error, CustomStringConvertible {
        case notAnImage, symlink, notRegular, notOwned, tooLarge, old, incomplete, unreadable(String)

        var description: String {
            switch self {
            case .notAnImage: return "not an image file"
            case .symlink: return "a symbolic link (not followed)"
            case .notRegular: return "not a regular file"
            case .notOwned: return "owned by another user"
            case .tooLarge: return "larger than \(maximumSize / 1024 / 1024) MiB"
            case .old: return "written more than \(Int(maximumAge)) s ago"
            case .incomplete: return "not a complete image yet (no PNG IEND, JPEG EOI or whole RIFF)"
            case .unreadable(let reason): return "unreadable: \(reason)"
            }
        }
    }
}
