// Where a rule came from: the user's file, a system policy file, or a window that asked.

/// Where a rule came from, which decides what an `allow` rule may uncover.
public enum RuleOrigin: Hashable, Sendable {
    /// The user's regions file, or the file `--regions` names (`RegionsFile.path`).
    case user
    /// A system policy file (`$XDG_CONFIG_DIRS/shotguard/regions`); `locked` when that file has
    /// a `lock` line, and then the rule is managed by the system.
    case system(path: String, locked: Bool)
    /// `_SHOTGUARD_PROTECT` = 1 on a window: the program asked to be covered.
    case windowProperty

    /// Whether the rule is managed by the system: the user's rules and allows cannot weaken it.
    public var isLocked: Bool {
        if case .system(_, let locked) = self { return locked }
        return false
    }

    /// The system policy file, for a system rule.
    public var systemPath: String? {
        if case .system(let path, _) = self { return path }
        return nil
    }

    /// Whether an `allow` rule from here may keep visible what a rule from `cover` covers.
    /// A system allow uncovers only system rules (the user's own covers are the user's to
    /// lift); a user allow uncovers the user's rules, windows that asked for protection, and
    /// system rules that are not locked.
    public func allowMayUncover(_ cover: RuleOrigin) -> Bool {
        switch (self, cover) {
        case (.system, .system): return true
        case (.system, _), (.windowProperty, _): return false
        case (.user, .system(_, let locked)): return !locked
        case (.user, _): return true
        }
    }
}
