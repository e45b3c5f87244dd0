// A parsed regions file: its rules in file order, and where the file lives by default.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ShotguardBase

/// The rules of a regions file, in the order they were written.
///
/// Not `Sendable`, because a `title~` match holds a compiled PCRE2 pattern.
public struct RegionsFile {
    /// The file as the user named it, used in error messages.
    public var path: String
    /// Every rule, in file order.
    public var rules: [Rule]

    public init(path: String, rules: [Rule]) {
        self.path = path
        self.rules = rules
    }

    /// The `window` rules, in file order.
    public var windowRules: [Rule] { rules.filter { $0.target == .window } }

    /// The `screen` rules, in file order.
    public var screenRules: [Rule] { rules.filter { $0.target == .screen } }

    /// Parses the text of a regions file; `path` is only used in error messages.
    ///
    /// Stops at the first error, which names the line and column and says what was expected.
    public static func parse(_ text: String, path: String) throws(RegionsError) -> RegionsFile {
        var rules: [Rule] = []
        // A "\r\n" pair is one Character, so split on it as well as on "\n".
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, line) in lines.enumerated() {
            do {
                let tokenized = try tokenize(line)
                guard !tokenized.tokens.isEmpty else { continue }
                rules.append(try parseRule(tokenized, line: index + 1))
            } catch {
                throw error.located(path: path, line: index + 1)
            }
        }
        return RegionsFile(path: path, rules: rules)
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
