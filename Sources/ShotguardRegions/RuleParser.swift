// Turns the tokens of one line into a `Rule`, or an error that points at the offending column.

import ShotguardBase
import ShotguardImaging
import ShotguardScreen

/// The words a rule may contain after its target, for "expected" messages.
let expectedWords = "class=, instance=, title=, title~, type=, a geometry WxH+X+Y or fill="

/// The targets, for "expected" messages (every one but `text` may follow `allow`).
let expectedTargets = String(listing: Target.allCases.map { "'\($0.rawValue)'" }) + ", the first four optionally after 'allow'"

/// Parses one non-blank line. `line` is the 1-based line number stored in the rule.
func parseRule(_ tokenized: TokenizedLine, line: Int, origin: RuleOrigin = .user) throws(LineError) -> Rule {
    var tokens = tokenized.tokens[...]
    let isAllow = isKeyword(tokens[tokens.startIndex], "allow")
    if isAllow {
        let allowToken = tokens.removeFirst()
        guard !tokens.isEmpty else {
            throw LineError(column: allowToken.endColumn,
                            message: "'allow' needs a target (expected 'allow window class=NAME', 'allow screen WxH+X+Y', "
                                + "'allow monitor NAME' or 'allow field role=ROLE')")
        }
    }
    let targetToken = tokens.removeFirst()
    if targetToken.text == "text", !targetToken.quoted.contains(true) {
        guard !isAllow else {
            throw LineError(column: targetToken.column, message: "'allow text' is not a rule (allow keeps a window, field, "
                + "monitor or screen area visible; a text rule covers what it finds)")
        }
        return try parseTextRule(tokenized, line: line, origin: origin)
    }
    guard let target = Target(rawValue: targetToken.text), !targetToken.quoted.contains(true) else {
        throw LineError(column: targetToken.column,
                        message: "unknown target '\(targetToken.raw.excerpt())' (expected \(expectedTargets))")
    }

    var rule = Rule(line: line, target: target, source: tokenized.source, isAllow: isAllow, origin: origin)
    var geometryToken: Token?
    var fillToken: Token?
    var monitorToken: Token?

    for token in tokens {
        if target == .monitor, try parseMonitorSelector(token, bare: !isGeometry(token) && splitKey(token) == nil,
                                                       into: &rule, first: &monitorToken) { continue }
        if isGeometry(token) {
            if let first = geometryToken {
                throw duplicate("geometry", token, first: first)
            }
            rule.geometry = try parseGeometry(token)
            geometryToken = token
            continue
        }
        guard let (key, valueStart) = splitKey(token) else {
            throw LineError(column: token.column, message: "unknown word '\(token.raw.excerpt())' (expected \(expectedWords))")
        }
        let value = String(token.characters[valueStart...])
        // Where the value begins as written: its opening quote, if it has one.
        let valueColumn = token.columns[valueStart - 1] + 1
        if key == "fill=" {
            if isAllow {
                throw LineError(column: token.column,
                                message: "an allow rule takes no fill (it keeps its area visible; found '\(token.raw.excerpt())')")
            }
            if let first = fillToken {
                throw duplicate("fill", token, first: first)
            }
            rule.fill = try parseFill(value, token: token, valueStart: valueStart, valueColumn: valueColumn)
            fillToken = token
            continue
        }
        if target == .field, try parseFieldWord(key: key, value: value, token: token, valueStart: valueStart, into: &rule) {
            continue
        }
        guard let placeholder = matchPlaceholders[key] else {
            throw LineError(column: token.column, message: "unknown word '\(token.raw.excerpt())' (expected \(expectedWords))")
        }
        guard target == .window || target == .field else {
            throw LineError(column: token.column,
                            message: "a \(target) rule takes no class=/instance=/title matches (found '\(token.raw.excerpt())')"
                                + (target == .monitor ? " (a monitor is picked with name=NAME or primary)" : ""))
        }
        guard !value.isEmpty else {
            throw LineError(column: valueColumn,
                            message: "empty value after '\(key)' (expected \(key)\(placeholder), "
                                + "or \(key)\"\(placeholder) WITH SPACES\")")
        }
        rule.matches.append(try makeMatch(key: key, value: value, token: token, valueStart: valueStart))
    }

    if target == .field {
        try finishFieldRule(&rule, targetToken: targetToken)
    }
    if target == .window && rule.matches.isEmpty {
        throw LineError(column: targetToken.column,
                        message: "a window rule needs at least one of class=, instance=, title=, title~, type=")
    }
    return rule
}

/// What each match key's value stands for, in "expected" messages.
private let matchPlaceholders = ["class=": "NAME", "instance=": "NAME", "title=": "TITLE", "title~": "REGEX", "type=": "TYPE"]

/// Whether `token` is the unquoted word `word`.
func isKeyword(_ token: Token, _ word: String) -> Bool {
    token.text == word && !token.quoted.contains(true)
}

func makeMatch(key: String, value: String, token: Token, valueStart: Int) throws(LineError) -> Match {
    switch key {
    case "class=": return .className(value)
    case "instance=": return .instance(value)
    case "title=": return .title(value)
    case "type=": return .windowTypes(try parseWindowTypes(value, token: token, valueStart: valueStart))
    default:
        do {
            return .titlePattern(try TitlePattern(value))
        } catch {
            // The character where PCRE2 noticed the trouble (it counts UTF-8 bytes); one that
            // noticed at the end, as with a missing ')', points at the last character.
            let index = valueStart + min(characterIndex(ofUTF8Offset: error.offset, in: value), value.count - 1)
            throw LineError(column: token.column(at: index),
                            message: "bad regular expression '\(value.excerpt())': \(error.message)")
        }
    }
}

/// `type=notification` or `type=menu,dropdown,popup`: EWMH window types, any of which matches.
private func parseWindowTypes(_ value: String, token: Token, valueStart: Int) throws(LineError) -> Set<WindowType> {
    var types = Set<WindowType>()
    var index = valueStart
    for word in value.split(separator: ",", omittingEmptySubsequences: false) {
        guard let type = WindowType(rawValue: String(word)) else {
            throw LineError(column: token.column(at: index),
                            message: "unknown window type '\(String(word).excerpt())' (expected one of "
                                + "\(WindowType.expectedForms), or several joined by commas)")
        }
        types.insert(type)
        index += word.count + 1
    }
    return types
}

/// A word that starts with an unquoted digit or `=` is a geometry, as in `300x28-0+0` or `=300x28`.
private func isGeometry(_ token: Token) -> Bool {
    guard let first = token.characters.first, token.quoted.first == false else { return false }
    return first == "=" || first.isASCII && first.isNumber
}

private func parseGeometry(_ token: Token) throws(LineError) -> Geometry {
    do {
        return try Geometry.parse(token.text)
    } catch {
        let index = characterIndex(ofUTF8Offset: error.offset, in: token.text)
        throw LineError(column: token.column(at: index), message: "bad geometry '\(token.raw.excerpt())': \(error.message)")
    }
}

/// Splits `key=value` or `title~value` at the first unquoted `=` or `~`, when what comes before it
/// is an unquoted word. Returns the key with its separator and the index where the value starts.
func splitKey(_ token: Token) -> (key: String, valueStart: Int)? {
    guard let separator = token.characters.indices.first(where: {
        !token.quoted[$0] && (token.characters[$0] == "=" || token.characters[$0] == "~")
    }), separator > 0, !token.quoted[..<separator].contains(true) else { return nil }
    return (String(token.characters[...separator]), separator + 1)
}

func duplicate(_ what: String, _ token: Token, first: Token) -> LineError {
    LineError(column: token.column,
              message: "duplicate \(what) '\(token.raw.excerpt())' (a rule takes at most one \(what); "
                  + "the first is '\(first.raw.excerpt())' at column \(first.column))")
}

/// The fill of `fill=VALUE`, an error pointing into the value where it is wrong.
func parseFill(_ value: String, token: Token, valueStart: Int, valueColumn: Int) throws(LineError) -> Fill {
    guard !value.isEmpty else {
        throw LineError(column: valueColumn, message: "empty value after 'fill=' (expected fill=\(Fill.expectedForms))")
    }
    do {
        return try Fill.parse(value)
    } catch {
        let index = valueStart + characterIndex(ofUTF8Offset: error.offset, in: value)
        throw LineError(column: token.column(at: index), message: error.message)
    }
}

/// The index of the character that contains UTF-8 offset `offset` of `text` (the count when past the end).
func characterIndex(ofUTF8Offset offset: Int, in text: String) -> Int {
    var bytes = 0
    for (index, character) in text.enumerated() {
        bytes += character.utf8.count
        if bytes > offset { return index }
    }
    return text.count
}
