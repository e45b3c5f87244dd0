// The words only a `monitor` rule takes: its monitor's name (`name=NAME` or a bare NAME) and `primary`.
import ShotguardImaging

/// Reads `token` as a monitor selector into `rule` when it is one (`name=NAME`, `primary`, or,
/// when `bare`, a word that is neither a geometry nor a key, as in `monitor HDMI-1`), and
/// returns whether it was; `first` is the selector seen before on this line, if any.
func parseMonitorSelector(_ token: Token, bare: Bool, into rule: inout Rule, first: inout Token?) throws(LineError) -> Bool {
    let isPrimary = token.text == "primary" && !token.quoted.contains(true)
    let isName = token.characters.starts(with: "name=") && !token.quoted.prefix(5).contains(true)
    guard isPrimary || isName || bare else { return false }
    if let first {
        throw LineError(column: token.column,
                        message: "a monitor rule names at most one monitor (found '\(token.raw.excerpt())' after "
                            + "'\(first.raw.excerpt())' at column \(first.column))")
    }
    if isPrimary {
        rule.monitor = .primary
    } else if isName {
        let name = String(token.characters.dropFirst(5))
        guard !name.isEmpty else {
            throw LineError(column: token.column(at: 5),
                            message: "empty value after 'name=' (expected name=MONITOR, e.g. name=DP-1; see 'shotguard monitors')")
        }
        rule.monitor = .named(name)
    } else {
        rule.monitor = .named(token.text)
    }
    first = token
    return true
}
