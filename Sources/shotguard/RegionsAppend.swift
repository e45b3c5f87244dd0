// Appends rules to the regions file: checked first, then written in place with one write, so a
// running agent (which follows the file) reads the file whole, with or without them.
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardRegions

enum RegionsAppend {
    /// The file's text, or nil when there is no file.
    static func existingText(_ path: String) throws(CLIError) -> String? {
        guard access(path, F_OK) == 0 else { return nil }
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try FileIO.read(path, limit: 1 << 20)
        } catch {
            throw .failure("cannot read \(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .usage("\(path): not UTF-8 text") }
        return text
    }

    /// Appends `lines` (comments and rules) to the file at `path`, made with its folders when
    /// missing, and prints what was written and where. The file with them must parse: nothing
    /// is written otherwise. A file that is a link is written where it points.
    static func append(_ lines: [String], to path: String) throws(CLIError) {
        let existing = try existingText(path) ?? ""
        let separator = existing.isEmpty || existing.hasSuffix("\n") ? "" : "\n"
        let added = lines.joined(separator: "\n") + "\n"
        do throws(RegionsError) {
            _ = try RegionsFile.parse(existing + separator + added, path: path)
        } catch {
            throw .usage("\(error.description) (nothing was added)")
        }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex { makeFolders(String(path[..<slash])) }
        do throws(FileError) {
            let file = try FileDescriptor.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, mode: 0o644)
            // One write: the agent that follows the file never reads half a rule.
            try file.writeAll(separator + added)
            try file.close()
        } catch {
            throw .failure("cannot add to \(error)")
        }
        let first = existing.split(omittingEmptySubsequences: false) { $0 == "\n" }.count + (existing.hasSuffix("\n") || existing.isEmpty ? 0 : 1)
        Console.output("added to \(path.escapingControlCharacters()) at line \(max(1, first)):\n"
            + lines.map { "  " + $0.escapingControlCharacters() }.joined(separator: "\n") + "\n")
    }

    private static func makeFolders(_ path: String) {
        var prefix = ""
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if access(prefix, F_OK) != 0 { mkdir(prefix, 0o755) }
        }
    }
}
