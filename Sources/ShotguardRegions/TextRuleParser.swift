// The words of a `text` rule: what to look for (card, email, iban, key, pattern~), `in` window conditions, fill=.
import ShotguardImaging
import ShotguardText

/// What a `text` rule looks for. Not `Sendable`-checked beyond its parts: a pattern is
/// immutable and shared by the threads of a scan.
public struct TextSelector: Sendable {
    public var kind: TextKind
    /// The expression of `pattern~`; nil for the other kinds.
    public var pattern: TextPattern?

    public init(kind: TextKind, pattern: TextPattern? = nil) {
        self.kind = kind
        self.pattern = pattern
    }

    /// The selector as a regions file spells it: `card`, `pattern~"…"`.
    public var description: String {
        guard let pattern else { return kind.rawValue }
        return "pattern~" + quotedIfNeeded(pattern.source)
    }
}

/// The forms a text rule takes, for "expected" messages.
let textRuleForms = "text KIND [in class=… instance=… title=… title~…] [fill=…], KIND one of \(TextKind.expectedForms)"

/// Parses a line whose target is `text`: `text KIND`, then optionally `in` and window
/// conditions, and `fill=` anywhere after the kind.
func parseTextRule(_ tokenized: TokenizedLine, line: Int, origin: RuleOrigin = .user) throws(LineError) -> Rule {
    let tokens = tokenized.tokens
    let targetToken = tokens[0]
    var rule = Rule(line: line, target: .text, source: tokenized.source, origin: origin)
    var fillToken: Token?
    var inToken: Token?

    for token in tokens.dropFirst() {
        if token.text == "in", !token.quoted.contains(true) {
            guard rule.text != nil else {
                throw LineError(column: token.column, message: "'in' comes after what the rule looks for (expected \(textRuleForms))")
            }
            if let first = inToken {
                throw LineError(column: token.column, message: "a text rule takes one 'in' (the first is at column \(first.column))")
            }
            inToken = token
            continue
        }
        if rule.text == nil {
            rule.text = try parseTextKind(token)
            continue
        }
        guard let (key, valueStart) = splitKey(token) else {
            if TextKind(rawValue: token.text) != nil {
                throw LineError(column: token.column,
                                message: "a text rule looks for one kind (found '\(token.raw.excerpt())' after "
                                    + "'\(rule.text!.description.excerpt())'); write one rule per kind")
            }
            throw LineError(column: token.column, message: "unknown word '\(token.raw.excerpt())' (expected \(textRuleForms))")
        }
        let value = String(token.characters[valueStart...])
        let valueColumn = token.columns[valueStart - 1] + 1
        if key == "fill=" {
            if let first = fillToken { throw duplicate("fill", token, first: first) }
            rule.fill = try parseFill(value, token: token, valueStart: valueStart, valueColumn: valueColumn)
            fillToken = token
            continue
        }
        guard ["class=", "instance=", "title=", "title~"].contains(key) else {
            throw LineError(column: token.column, message: "unknown word '\(token.raw.excerpt())' (expected \(textRuleForms))")
        }
        guard inToken != nil else {
            throw LineError(column: token.column, message: "window conditions of a text rule follow 'in', as in "
                + "'text card in class=firefox' (found '\(token.raw.excerpt())')")
        }
        guard !value.isEmpty else {
            throw LineError(column: valueColumn, message: "empty value after '\(key)' (expected \(key)VALUE, or \(key)\"VALUE WITH SPACES\")")
        }
        rule.matches.append(try makeMatch(key: key, value: value, token: token, valueStart: valueStart))
    }
    guard rule.text != nil else {
        throw LineError(column: targetToken.endColumn,
                        message: "a text rule needs what to look for (expected \(textRuleForms)), as in 'text card'")
    }
    if let inToken, rule.matches.isEmpty {
        throw LineError(column: inToken.column, message: "'in' needs window conditions after it: class=, instance=, title= or title~")
    }
    return rule
}

/// `card`, `email`, `iban`, `key` or `pattern~REGEX`.
private func parseTextKind(_ token: Token) throws(LineError) -> TextSelector {
    let unknown = LineError(column: token.column,
                            message: "unknown text kind '\(token.raw.excerpt())' (expected \(TextKind.expectedForms))")
    if let (key, valueStart) = splitKey(token) {
        guard key == "pattern~" else {
            if key == "pattern=" {
                throw LineError(column: token.column, message: "a pattern is written pattern~\"REGEX\" (found '\(token.raw.excerpt())')")
            }
            throw unknown
        }
        let value = String(token.characters[valueStart...])
        guard !value.isEmpty else {
            throw LineError(column: token.columns[valueStart - 1] + 1,
                            message: "empty value after 'pattern~' (expected pattern~REGEX, or pattern~\"REGEX WITH SPACES\")")
        }
        do {
            return TextSelector(kind: .pattern, pattern: try TextPattern(value))
        } catch {
            let index = valueStart + min(characterIndex(ofUTF8Offset: error.offset, in: value), value.count - 1)
            throw LineError(column: token.column(at: index), message: "bad regular expression '\(value.excerpt())': \(error.message)")
        }
    }
    guard !token.quoted.contains(true), let kind = TextKind(rawValue: token.text), kind != .pattern else { throw unknown }
    return TextSelector(kind: kind)
}
