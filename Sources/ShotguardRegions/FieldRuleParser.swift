// The words only a `field` rule takes: `role=` and `name~`.
import ShotguardScreen
import ShotguardImaging

/// Handles `role=` and `name~` on a `field` rule; returns false for any other word, which the
/// caller then treats as a window match (`class=`, `instance=`, `title`) or an error.
func parseFieldWord(key: String, value: String, token: Token, valueStart: Int,
                    into rule: inout Rule) throws(LineError) -> Bool {
    let valueColumn = token.columns[valueStart - 1] + 1
    switch key {
    case "role=":
        guard !value.isEmpty else {
            throw LineError(column: valueColumn, message: "empty value after 'role=' (expected role=\(FieldRole.expectedForms))")
        }
        var roles = rule.field?.roles ?? []
        for word in value.split(separator: ",", omittingEmptySubsequences: false) {
            guard let role = FieldRole(rawValue: String(word)) else {
                throw LineError(column: valueColumn,
                                message: "unknown role '\(String(word).excerpt())' (expected one of \(FieldRole.expectedForms), "
                                    + "or several joined by commas)")
            }
            roles.insert(role)
        }
        rule.field = FieldSelector(roles: roles, name: rule.field?.name)
        return true
    case "name~":
        guard !value.isEmpty else {
            throw LineError(column: valueColumn, message: "empty value after 'name~' (expected name~REGEX, or name~\"REGEX WITH SPACES\")")
        }
        if rule.field?.name != nil {
            throw LineError(column: token.column, message: "duplicate 'name~' (a field rule takes at most one)")
        }
        // Compiled and checked as a title~ is, so its errors point at the same columns.
        guard case .titlePattern(let pattern) = try makeMatch(key: "title~", value: value, token: token,
                                                               valueStart: valueStart) else { return false }
        rule.field = FieldSelector(roles: rule.field?.roles ?? [], name: pattern)
        return true
    default:
        return false
    }
}

/// A field rule needs `role=` or `name~`; with only `name~` it considers every role.
func finishFieldRule(_ rule: inout Rule, targetToken: Token) throws(LineError) {
    guard let field = rule.field else {
        throw LineError(column: targetToken.column,
                        message: "a field rule needs role= (\(FieldRole.expectedForms)) or name~, as in 'field role=password'")
    }
    if field.roles.isEmpty { rule.field?.roles = Set(FieldRole.allCases) }
}
