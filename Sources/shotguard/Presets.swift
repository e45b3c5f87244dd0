// The shipped presets: regions-file fragments in share/shotguard/presets under the installed
// prefix (found from the binary's own path), or in a checkout's presets/ for its own builds.
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardRegions

struct Presets {
    let folder: String

    /// The presets folder: `PREFIX/share/shotguard/presets` beside the binary's `PREFIX/bin`, else
    /// a checkout's `presets/` above a binary built in it (`.build/.../shotguard`).
    static func find() throws(CLIError) -> Presets {
        let executable = ownPath()
        var folder = executable.map(parent) ?? ""
        var candidates = [parent(folder) + "/share/shotguard/presets"]
        for _ in 0..<5 where !folder.isEmpty {
            folder = parent(folder)
            if access(folder + "/Package.swift", F_OK) == 0 { candidates.append(folder + "/presets") }
        }
        for candidate in candidates where isFolder(candidate) { return Presets(folder: candidate) }
        throw .failure("no presets: none at \(candidates[0].escapingControlCharacters()) (shotguard's install "
            + "puts them there; 'make install' or the Debian package)")
    }

    /// Every preset's name and its first comment line.
    func list() -> [(name: String, summary: String)] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix("."), Self.isName(name) { names.append(name) }
        }
        return names.sorted().map { name in
            let text = (try? read(name)) ?? ""
            let summary = text.split(separator: "\n").first { $0.hasPrefix("#") }.map { $0.dropFirst().trimmingBlanks } ?? ""
            return (name, String(summary))
        }
    }

    /// The lines to append for preset `name`: a comment naming it, then its rules that are not
    /// already in the user's file (compared as written, blanks trimmed).
    func lines(of name: String, existing: String? = nil) throws(CLIError) -> [String] {
        guard Self.isName(name), access(folder + "/" + name, R_OK) == 0 else {
            throw .usage("regions add: no preset '\(name.escapingControlCharacters())' (expected one of: "
                + list().map(\.name).joined(separator: ", ") + ")")
        }
        let text = try read(name)
        do throws(RegionsError) {
            _ = try RegionsFile.parse(text, path: folder + "/" + name)
        } catch {
            throw .failure("the preset is broken: \(error.description)")
        }
        let rules = text.split(separator: "\n").map { $0.trimmingBlanks }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        let present = Set((existing ?? "").split(separator: "\n").map { $0.trimmingBlanks })
        let new = rules.filter { !present.contains($0) }
        guard !new.isEmpty else { return [] }
        return ["# preset \(name) (regions add --preset \(name))"] + new
    }

    private func read(_ name: String) throws(CLIError) -> String {
        do throws(FileError) {
            return String(decoding: try FileIO.read(folder + "/" + name, limit: 64 * 1024), as: UTF8.self)
        } catch {
            throw .failure("cannot read the preset: \(error)")
        }
    }

    /// Letters, digits, `-`, `_` and `.` not first: a name that cannot leave the folder.
    static func isName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E
        }
    }

    private static func ownPath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
