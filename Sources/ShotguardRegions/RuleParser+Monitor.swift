// The words only a `monitor` rule takes: `name=NAME` and `primary`, which pick its monitors.
import ShotguardImaging

/// Reads `token` as a monitor selector into `rule` when it is one (`name=NAME` or `primary`),
/// and returns whether it was; `first` is the selector seen before on this line, if any.
func parseMonitorSelector(_ token: Token, into rule: inout Rule, first: inout Token?) throws(LineError) -> Bool {
    let isPrimary = token.text == "primary" && !token.quoted.contains(true)
    let isName = token.characters.starts(with: "name=") && !token.quoted.prefix(5).contains(true)
    guard isPrimary || isName else { return false }
    if let first {
        throw LineError(column: token.column,
                        message: "a monitor rule names at most one monitor (found '\(token.raw.excerpt())' after "
                            + "'\(first.raw.excerpt())' at column \(first.column))")
    }
    if isName {
        let name = String(token.characters.dropFirst(5))
        guard !name.isEmpty else {
            throw LineError(column: token.column(at: 5),
                            message: "empty value after 'name=' (expected name=MONITOR, e.g. name=DP-1; see 'shotguard monitors')")
        }
        rule.monitor = .named(name)
    } else {
        rule.monitor = .primary
    }
    first = token
    return true
}
