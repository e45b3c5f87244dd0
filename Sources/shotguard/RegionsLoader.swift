// Finds and loads the rules for a command: the system policy files, then --regions or the
// user's file; and refuses what a locked system policy forbids.
import ShotguardRegions

enum RegionsLoader {
    /// The rules to apply: the system policy files (`$XDG_CONFIG_DIRS/shotguard/regions`) that
    /// exist, then the file `--regions` names or the user's file if present; nil when there
    /// is no file at all. A file that exists but does not parse is a usage error (exit 2)
    /// naming that file: nothing is written.
    static func load(explicitPath: String?) throws(CLIError) -> RegionsFile? {
        do throws(RegionsError) {
            return try RegionsPolicy.load(userPath: explicitPath)
        } catch {
            throw .usage(error.description)
        }
    }

    /// Like `load`, but no file at all is an error: the command is about the rules.
    static func require(explicitPath: String?) throws(CLIError) -> RegionsFile {
        guard let regions = try load(explicitPath: explicitPath) else {
            throw .usage("no regions file at \(RegionsFile.defaultPath) (create one, or name one with --regions FILE; "
                + "see shotguard-regions(5))")
        }
        return regions
    }

    /// Refuses `action` (`watch --no-guard`) when a system policy file says `lock`, with the
    /// sentence of `PolicyLock.refusal(of:)` (exit 2); a policy file that does not parse is
    /// refused too, naming it.
    static func refuseUnderLock(_ action: String) throws(CLIError) {
        let lock: PolicyLock?
        do throws(RegionsError) {
            lock = try RegionsPolicy.lock()
        } catch {
            throw .usage(error.description)
        }
        if let lock { throw .usage(lock.refusal(of: action)) }
    }
}
