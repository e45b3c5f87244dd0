// A parsed regions file: its rules in file order, and where the file lives by default.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ShotguardBase
import ShotguardImaging

/// The rules of a regions file, in the order they were written; or of the system policy
/// files and the user's file together (`RegionsPolicy.load`), the system's rules first.
///
/// Not `Sendable`, because a `title~` match holds a compiled PCRE2 pattern.
public struct RegionsFile {
    /// The user's file as the user named it, used in error messages.
    public var path: String
    /// Every rule, in file order (system policy files first, in the order they were read).
    public var rules: [Rule]
    /// The first `lock` line of a system policy file: its rules are managed by the system.
    public var lock: PolicyLock?
    /// The system policy files whose rules are here, in the order they were read.
    public var systemPaths: [String]
    /// Whether the user's file at `path` was read (false when only system policy files were).
    public var hasUserFile: Bool
    /// The `trust` lines, in file order (system policy files first).
    public var trusts: [TrustRule]

    public init(path: String, rules: [Rule], lock: PolicyLock? = nil, systemPaths: [String] = [], hasUserFile: Bool = true,
                trusts: [TrustRule] = []) {
        self.path = path
        self.rules = rules
        self.lock = lock
        self.systemPaths = systemPaths
        self.hasUserFile = hasUserFile
        self.trusts = trusts
    }

    /// The programs trusted to see everything: every system policy's `trust`, and the user's
    /// while no system policy is locked.
    public var trustedPrograms: [ProgramName] {
        trusts.filter { !refusedTrusts.contains($0) }.map(\.program)
    }

    /// The user's `trust` lines that a locked system policy refuses: they have no effect.
    public var refusedTrusts: [TrustRule] {
        guard lock != nil else { return [] }
        return trusts.filter { if case .system = $0.origin { false } else { true } }
    }

    /// The `window` rules, in file order.
    public var windowRules: [Rule] { rules.filter { $0.target == .window } }

    /// The `screen` rules, in file order.
    public var screenRules: [Rule] { rules.filter { $0.target == .screen } }

    /// The rules that cover (every rule but the `allow` rules), in file order.
    public var coverRules: [Rule] { rules.filter { !$0.isAllow } }

    /// Parses the text of a user's regions file; `path` is only used in error messages.
    ///
    /// Stops at the first error, which names the line and column and says what was expected.
    public static func parse(_ text: String, path: String) throws(RegionsError) -> RegionsFile {
        try parse(text, path: path, system: false)
    }

    /// Parses a regions file; a system policy file (`system`) may hold a `lock` line, which
    /// marks every rule of the file locked.
    public static func parse(_ text: String, path: String, system: Bool) throws(RegionsError) -> RegionsFile {
        var rules: [Rule] = []
        var trusts: [TrustRule] = []
        var lock: PolicyLock?
        // A "\r\n" pair is one Character, so split on it as well as on "\n".
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, line) in lines.enumerated() {
            do {
                let tokenized = try tokenize(line)
                guard let first = tokenized.tokens.first else { continue }
                if isKeyword(first, "lock") {
                    try checkLock(tokenized, system: system)
                    if lock == nil { lock = PolicyLock(path: path, line: index + 1) }
                    continue
                }
                if isKeyword(first, "trust") {
                    trusts.append(try parseTrustRule(tokenized, line: index + 1, origin: system ? .system(path: path, locked: false) : .user))
                    continue
                }
                rules.append(try parseRule(tokenized, line: index + 1,
                                           origin: system ? .system(path: path, locked: false) : .user))
            } catch {
                throw error.located(path: path, line: index + 1)
            }
        }
        if lock != nil {
            for index in rules.indices { rules[index].origin = .system(path: path, locked: true) }
            for index in trusts.indices { trusts[index].origin = .system(path: path, locked: true) }
        }
        return RegionsFile(path: path, rules: rules, lock: lock, systemPaths: system ? [path] : [], trusts: trusts)
    }

    /// `lock` stands alone, and only in a system policy file.
    private static func checkLock(_ line: TokenizedLine, system: Bool) throws(LineError) {
        guard system else {
            throw LineError(column: line.tokens[0].column,
                            message: "'lock' belongs in a system policy file ($XDG_CONFIG_DIRS/shotguard/regions, "
                                + "e.g. /etc/xdg/shotguard/regions), not in a user's regions file")
        }
        if line.tokens.count > 1 {
            throw LineError(column: line.tokens[1].column,
                            message: "'lock' stands alone on its line (found '\(line.tokens[1].raw.excerpt())' after it)")
        }
    }

    /// `$XDG_CONFIG_HOME/shotguard/regions`, or `$HOME/.config/shotguard/regions`.
    public static var defaultPath: String {
        defaultPath(xdgConfigHome: XDGPaths.absolute("XDG_CONFIG_HOME"), home: XDGPaths.home())
    }

    /// The default path for the given variables. Per the XDG base directory specification, an
    /// empty or relative `XDG_CONFIG_HOME` is ignored.
    public static func defaultPath(xdgConfigHome: String?, home: String?) -> String {
        if let xdgConfigHome, xdgConfigHome.hasPrefix("/") {
            return xdgConfigHome + "/shotguard/regions"
        }
        return (home ?? "") + "/.config/shotguard/regions"
    }
}
