// Splits one line of a regions file into tokens: whitespace, double quotes, escapes, `#` comments.

/// One whitespace-separated word of a line, with quotes removed and every character's column kept,
/// so errors found later inside a value can still point at the right column.
struct Token {
    /// The word after removing quotes and resolving escapes.
    var characters: [Character] = []
    /// The 1-based column in the line of each entry of `characters`.
    var columns: [Int] = []
    /// Whether each entry of `characters` was inside double quotes.
    var quoted: [Bool] = []
    /// The 1-based column where the word starts.
    var column: Int
    /// The 1-based column just past the word's last character.
    var endColumn: Int
    /// The word as written, quotes included, for messages.
    var raw: String = ""

    init(column: Int) {
        self.column = column
        self.endColumn = column
    }

    var text: String { String(characters) }

    /// The column of the character at `index`, or just past the word when `index` is at the end.
    func column(at index: Int) -> Int {
        index < columns.count ? columns[index] : endColumn
    }
}

/// A line split into tokens, plus the rule text that `Rule.source` shows.
struct TokenizedLine {
    var tokens: [Token]
    /// The line up to its comment, without leading or trailing spaces and tabs.
    var source: String
}

/// Splits `line` on spaces and tabs.
///
/// A `#` that begins a word (at the start of the line or after whitespace) and is not inside
/// quotes starts a comment that runs to the end of the line; anywhere else, as in `fill=#ff0000`,
/// it is an ordinary character. Double quotes may enclose any part of a word and keep its spaces;
/// inside them `\"` stands for `"` and `\\` for `\`, and any other backslash is kept as written so
/// regular expressions such as `"\d+ items"` need no doubling.
func tokenize(_ line: Substring) throws(LineError) -> TokenizedLine {
    let characters = Array(line)
    var tokens: [Token] = []
    var current: Token?
    var end = characters.count
    var index = 0

    func isBlank(_ character: Character) -> Bool { character == " " || character == "\t" }

    while index < characters.count {
        let character = characters[index]
        let column = index + 1
        if isBlank(character) {
            if let token = current { tokens.append(token) }
            current = nil
            index += 1
            continue
        }
        if current == nil {
            if character == "#" {
                end = index
                break
            }
            current = Token(column: column)
        }
        if character == "\"" {
            index = try readQuoted(characters, from: index, into: &current!)
        } else {
            current!.characters.append(character)
            current!.columns.append(column)
            current!.quoted.append(false)
            current!.raw.append(character)
            index += 1
        }
        current!.endColumn = index + 1
    }
    if let token = current { tokens.append(token) }

    let kept = characters[..<end]
    let first = kept.firstIndex { !isBlank($0) } ?? end
    let last = kept.lastIndex { !isBlank($0) }.map { $0 + 1 } ?? first
    return TokenizedLine(tokens: tokens, source: String(characters[first..<max(first, last)]))
}

/// Reads the quoted section opening at `start` into `token`; returns the index after its closing quote.
private func readQuoted(_ characters: [Character], from start: Int, into token: inout Token) throws(LineError) -> Int {
    var index = start + 1
    token.raw.append("\"")
    while index < characters.count {
        var character = characters[index]
        let column = index + 1
        if character == "\"" {
            token.raw.append(character)
            return index + 1
        }
        if character == "\\", index + 1 < characters.count,
           characters[index + 1] == "\"" || characters[index + 1] == "\\" {
            token.raw.append(character)
            index += 1
            character = characters[index]
        }
        token.characters.append(character)
        token.columns.append(column)
        token.quoted.append(true)
        token.raw.append(character)
        index += 1
    }
    throw LineError(column: start + 1, message: "unterminated quote (expected a closing '\"' before the end of the line)")
}
