// The application behind a window class, as its desktop entry names it: name, entry id and version.
import Glibc
import ShotguardBase

/// What a report says of the active window's application.
struct ApplicationInfo: Sendable, Equatable {
    /// The desktop entry's file name (`org.gnome.Calculator.desktop`).
    let desktopEntry: String
    let name: String?
    /// The application's version, only where the entry says it: `X-AppImage-Version` or
    /// `X-GNOME-Bugzilla-Version`. `Version=` is the desktop entry format's version, not the
    /// application's, so it is never read as one.
    let version: String?
}

/// Finds a window class's desktop entry in the XDG data folders (`$XDG_DATA_HOME`, then
/// `$XDG_DATA_DIRS`, each's `applications/`): the entry whose `StartupWMClass` is the class or
/// instance, else the one named after either. Entries are files other programs installed:
/// each is read bounded, and what is read is cached per class for the agent's life.
final class DesktopEntries {
    private var cache: [String: ApplicationInfo?] = [:]
    private let folders: [String]
    static let entryLimit = 256 << 10
    static let versionKeys = ["X-AppImage-Version", "X-GNOME-Bugzilla-Version"]

    init(folders: [String] = DesktopEntries.applicationFolders()) {
        self.folders = folders
    }

    static func applicationFolders() -> [String] {
        let home = XDGPaths.absolute("XDG_DATA_HOME") ?? (XDGPaths.home() ?? "") + "/.local/share"
        let dirs = (getenv("XDG_DATA_DIRS").map { String(cString: $0) }).flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        return ([home] + dirs.split(separator: ":").map(String.init)).filter { $0.hasPrefix("/") }.map { $0 + "/applications" }
    }

    /// The application of windows of `className`/`instance`, or nil when no entry names it.
    func application(className: String, instance: String) -> ApplicationInfo? {
        let key = className + "\n" + instance
        if let known = cache[key] { return known }
        let found = lookUp(className: className, instance: instance)
        if cache.count > 256 { cache.removeAll() }
        cache[key] = found
        return found
    }

    private func lookUp(className: String, instance: String) -> ApplicationInfo? {
        let wanted = Set([className.lowercased(), instance.lowercased()].filter { !$0.isEmpty })
        guard !wanted.isEmpty else { return nil }
        var byName: ApplicationInfo?
        for folder in folders {
            for file in entryFiles(in: folder) {
                let base = String(file.dropLast(".desktop".count)).lowercased()
                let namedAfter = wanted.contains(base) || wanted.contains(where: { base.hasSuffix("." + $0) })
                guard let fields = read(folder + "/" + file) else { continue }
                if let wmClass = fields["StartupWMClass"], wanted.contains(wmClass.lowercased()) {
                    return info(file, fields)
                }
                if namedAfter, byName == nil { byName = info(file, fields) }
            }
        }
        return byName
    }

    private func info(_ file: String, _ fields: [String: String]) -> ApplicationInfo {
        ApplicationInfo(desktopEntry: file, name: fields["Name"], version: Self.versionKeys.lazy.compactMap { fields[$0] }.first)
    }

    private func entryFiles(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory), names.count < 10_000 {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".desktop") { names.append(name) }
        }
        return names.sorted()
    }

    /// The keys of an entry's `[Desktop Entry]` group (unlocalised keys only).
    func read(_ path: String) -> [String: String]? {
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try FileIO.read(path, limit: Self.entryLimit)
        } catch {
            return nil  // an entry that cannot be read names no application: the report says none
        }
        var fields: [String: String] = [:]
        var inGroup = false
        for raw in bytes.split(separator: 0x0A) {
            let line = String(decoding: raw, as: UTF8.self)
            if line.hasPrefix("[") {
                inGroup = line.hasPrefix("[Desktop Entry]")
                continue
            }
            guard inGroup, let equals = line.firstIndex(of: "="), !line.hasPrefix("#") else { continue }
            let key = String(line[..<equals]).trimmingCharacters
            guard !key.contains("["), fields[key] == nil else { continue }
            fields[key] = String(String(line[line.index(after: equals)...]).trimmingCharacters.prefix(200))
        }
        return fields
    }
}

private extension String {
    var trimmingCharacters: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" && $0 != "\r" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" && $0 != "\r" }) else { return "" }
        return String(scalars[first...last])
    }
}
