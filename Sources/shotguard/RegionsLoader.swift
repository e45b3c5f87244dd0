// Finds and loads the regions file for a command: --regions, else the default path if present.
import ShotguardRegions
@preconcurrency import Glibc

enum RegionsLoader {
    /// The rules to apply, or nil when no file was named and none exists at the default path.
    /// A file that exists but does not parse is a usage error (exit 2): nothing is written.
    static func load(explicitPath: String?) throws(CLIError) -> RegionsFile? {
        let path = explicitPath ?? RegionsFile.defaultPath
        // Only a path with nothing at all behind it means "no rules": a dangling link or a
        // folder in the way is an error, or a broken setup would silently redact nothing.
        var status = stat()
        if explicitPath == nil, lstat(path, &status) != 0, errno == ENOENT { return nil }
        do throws(RegionsError) {
            return try RegionsFile.load(path: path)
        } catch {
            throw .usage(error.description)
        }
    }
}

extension RegionsLoader {
    /// Like `load`, but a missing default file is an error: the command is about the file.
    static func require(explicitPath: String?) throws(CLIError) -> RegionsFile {
        guard let regions = try load(explicitPath: explicitPath) else {
            throw .usage("no regions file at \(RegionsFile.defaultPath) (create one, or name one with --regions FILE; "
                + "see shotguard-regions(5))")
        }
        return regions
    }
}
