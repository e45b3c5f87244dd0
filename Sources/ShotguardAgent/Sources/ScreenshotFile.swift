// Decides whether a new file is a screenshot: name, folder, age, completeness, ownership.
import Glibc
import ShotguardBase
import ShotguardImaging

/// A new image file that may be a screenshot.
struct ScreenshotFile {
    enum Strength: String { case strong, weak }

    let path: BytePath
    let strength: Strength
    /// The file's bytes when it is a complete PNG and the caller asked to keep them; nil for
    /// other image formats, or when classified with `keepingBytes: false`.
    let png: [UInt8]?
    let modified: Double
    /// The file as it was checked: reading it again (`ScreenshotFileClassifier.read`) gives
    /// its bytes only while it is still this file, unchanged.
    let identity: FileIdentity
    /// The format its name says (its bytes decide when it is read).
    let format: ImageFormat
}

enum ScreenshotFileClassifier {
    /// Words that screenshot tools put in file names, in some of the languages GNOME and KDE
    /// translate them into. A weak signal on its own: tools differ and some use no word at all.
    static let keywords = [
        "screenshot", "screen shot", "scrot", "maim", "flameshot", "ksnip", "spectacle", "shutter",
        "bildschirmfoto", "captura", "capture d", "schermata", "zrzut ekranu", "skärmbild", "schermafbeelding",
        "снимок экрана", "スクリーンショット", "屏幕截图",
    ]
    static let maximumSize = 64 * 1024 * 1024
    static let maximumAge = 5.0

    /// Whether `name` could be an image a tool just wrote (not hidden, not a temporary file).
    static func looksLikeImage(_ name: BytePath) -> Bool {
        looksLikeImage(name.lossyText)
    }

    /// An extension of a format the imaging layer reads (`ImageFormat`, the one list) on a name
    /// that is not hidden.
    static func looksLikeImage(_ name: String) -> Bool {
        !name.hasPrefix(".") && ImageFormat(path: name) != nil
    }

    static func isStronglyNamed(_ path: BytePath) -> Bool {
        let parts = path.lossyText.split(separator: "/")
        let name = Array((parts.last.map { $0.lowercased() } ?? "").utf8)
        let folder = parts.dropLast().last.map { $0.lowercased() } ?? ""
        return folder == "screenshots" || keywordBytes.contains { contains(name, $0) }
    }

    /// The keywords as UTF-8, searched for as bytes: a burst of thousands of names is checked
    /// without a Unicode-aware search for each keyword in each name.
    private static let keywordBytes = keywords.map { Array($0.utf8) }

    private static func contains(_ text: [UInt8], _ word: [UInt8]) -> Bool {
        guard let first = word.first, text.count >= word.count else { return false }
        var start = 0
        while start + word.count <= text.count {
            if text[start] == first, text[start..<(start + word.count)].elementsEqual(word) { return true }
            start += 1
        }
        return false
    }

    /// The file as a screenshot candidate, or why it is not one. Opens without following a
    /// symlink and checks the open file itself, so a swapped path cannot slip through. The
    /// file is read to check it is complete; with `keepingBytes: false` its bytes are not kept
    /// (many files at once), and `read(_:)` gets them later.
    /// The agent classifies a file the moment its event comes with neither check of age nor of
    /// completeness (`checkingAge`, `checkingCompleteness` false): nothing is read then, so a
    /// burst of thousands of files costs a `stat` each; whether it is complete is found when it
    /// is examined, and its age does not matter (evidence does).
    static func classify(_ path: BytePath, now: Double, keepingBytes: Bool = true, checkingAge: Bool = true,
                         checkingCompleteness: Bool = true) -> Result<ScreenshotFile, SkipReason> {
        let name = path.lastComponent
        guard looksLikeImage(name), let format = ImageFormat(path: name.lossyText) else { return .failure(.notAnImage) }
        let fd = path.withCString { open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return .failure(errno == ELOOP ? .symlink : .unreadable(errnoText())) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular) }
        guard status.st_uid == getuid() else { return .failure(.notOwned) }
        guard !checkingCompleteness || Int(status.st_size) <= maximumSize else { return .failure(.tooLarge) }
        let modified = seconds(status.st_mtim)
        guard !checkingAge || now - modified <= maximumAge else { return .failure(.old) }
        let strength: ScreenshotFile.Strength = isStronglyNamed(path) ? .strong : .weak
        func file(_ png: [UInt8]?) -> ScreenshotFile {
            ScreenshotFile(path: path, strength: strength, png: png, modified: modified, identity: FileIdentity(status),
                           format: format)
        }
        guard format != .bmp, checkingCompleteness else { return .success(file(nil)) }
        let bytes: [UInt8]
        switch readComplete(fd: fd, path: path) {
        case .failure(let reason): return .failure(reason)
        case .success(let read): bytes = read
        }
        return .success(file(keepingBytes ? bytes : nil))
    }

    /// The bytes of a file classified before, read again only if the path still opens the same
    /// file (device and inode) with the same size and modification time, and still complete.
    static func read(_ file: ScreenshotFile) -> Result<[UInt8], SkipReason> {
        let fd = file.path.withCString { open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return .failure(errno == ELOOP ? .symlink : .unreadable(errnoText())) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular) }
        guard FileIdentity(status) == file.identity else { return .failure(.changed) }
        switch readComplete(fd: fd, path: file.path, format: file.format) {
        case .failure(let reason): return .failure(reason)
        case .success(let bytes): return bytes.count == file.identity.size ? .success(bytes) : .failure(.changed)
        }
    }

    /// The whole file, when it is a complete image (a PNG up to its IEND).
    private static func readComplete(fd: Int32, path: BytePath, format: ImageFormat = .png) -> Result<[UInt8], SkipReason> {
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try FileIO.read(fd: fd, name: path.description, limit: maximumSize)
        } catch {
            return .failure(.unreadable(error.description))
        }
        // Every format is checked by its bytes (BMP is not read when classified). An empty file
        // is a file about to be written.
        guard !bytes.isEmpty else { return .failure(.incomplete) }
        guard let sniffed = ImageFormat.sniff(bytes) else { return .success(bytes) }
        return sniffed.isComplete(bytes) ? .success(bytes) : .failure(.incomplete)
    }

    enum SkipReason: Error, CustomStringConvertible {
        case notAnImage, symlink, notRegular, notOwned, tooLarge, old, incomplete, changed, unreadable(String)

        var description: String {
            switch self {
            case .notAnImage: return "not an image file"
            case .symlink: return "a symbolic link (not followed)"
            case .notRegular: return "not a regular file"
            case .notOwned: return "owned by another user"
            case .tooLarge: return "larger than \(maximumSize / 1024 / 1024) MiB"
            case .old: return "written more than \(Int(maximumAge)) s ago"
            case .incomplete: return "not a complete image yet (its format's end, such as PNG's IEND or JPEG's EOI, is not there)"
            case .changed: return "changed or replaced since it was checked"
            case .unreadable(let reason): return "unreadable: \(reason)"
            }
        }

        /// The reason as the event stream says it.
        var code: String {
            switch self {
            case .notAnImage: return "not-an-image"
            case .symlink: return "symlink"
            case .notRegular: return "not-regular"
            case .notOwned: return "not-owned"
            case .tooLarge: return "too-large"
            case .old: return "old"
            case .incomplete: return "incomplete"
            case .changed: return "changed"
            case .unreadable: return "unreadable"
            }
        }
    }
}
