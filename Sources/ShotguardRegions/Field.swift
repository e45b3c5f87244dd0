// What a `field` rule selects of the accessible fields on screen.

import ShotguardText
import ShotguardScreen

/// The conditions of a `field` rule on the accessible object itself; conditions on its window
/// (`class=`, `instance=`, `title`) are the rule's ordinary matches.
///
/// Not `Sendable`: a `name~` holds a compiled PCRE2 pattern.
public struct FieldSelector {
    /// The roles a field may have; never empty.
    public var roles: Set<FieldRole>
    /// `name~REGEX`: a pattern found anywhere in the field's accessible name.
    public var name: TitlePattern?

    public init(roles: Set<FieldRole>, name: TitlePattern? = nil) {
        self.roles = roles
        self.name = name
    }

    /// Whether `field` has one of the roles and a matching name. A name pattern that cannot
    /// decide within its budget counts as a match (`.undecided`).
    public func evaluate(_ field: AccessibleField) -> TitleMatchResult {
        guard roles.contains(field.role) else { return .noMatch }
        return name?.evaluate(field.name) ?? .match
    }
}
