// The folders where screenshot tools save by default: XDG pictures, its Screenshots, home.
import Glibc
import ShotguardBase

enum DefaultFolders {
    /// `XDG_PICTURES_DIR` from `user-dirs.dirs` (else `~/Pictures`), its `Screenshots`
    /// subfolder, and the home folder.
    static func screenshotFolders() -> [String] {
        guard let home = UserFolders.home() else { return [] }
        let pictures = picturesFolder(home: home)
        return [pictures, pictures + "/Screenshots", home]
    }

    static func picturesFolder(home: String) -> String {
        // The home given, not the environment's: a test or caller may name another.
        let config = XDGPaths.absolute("XDG_CONFIG_HOME") ?? home + "/.config"
        guard let file = fopen(config + "/user-dirs.dirs", "r") else { return home + "/Pictures" }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line).trimmingCharacters(in: " \t\n")
            guard text.hasPrefix("XDG_PICTURES_DIR=") else { continue }
            var value = String(text.dropFirst("XDG_PICTURES_DIR=".count))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            value = value.replacingOccurrences(of: "$HOME", with: home)
            if value.hasPrefix("/"), value != home { return value }
        }
        return home + "/Pictures"
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }

    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
