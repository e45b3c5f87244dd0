// The one error type of the regions layer: a sentence the user can act on, with file, line and column.

/// A regions file that cannot be read or does not parse.
///
/// `description` reads like a compiler diagnostic, so editors can jump to it:
/// `regions:12:31: unknown fill 'blurr' (expected black, #rrggbb or pixelate[:N])`.
public struct RegionsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file as the user named it.
    public var path: String
    /// 1-based line, when the trouble is on one line.
    public var line: Int?
    /// 1-based column in characters of the line (a tab counts as one), when known.
    public var column: Int?
    /// One line saying what is wrong and what was expected.
    public var message: String

    public init(path: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `path:line:col: message`, `path:line: message` or `path: message`.
    public var description: String {
        var position = path
        if let line {
            position += ":\(line)"
            if let column { position += ":\(column)" }
        }
        return "\(position): \(message)"
    }
}

/// A problem on one line, before the parser knows which file and line it is in.
struct LineError: Error {
    var column: Int
    var message: String

    func located(path: String, line: Int) -> RegionsError {
        RegionsError(path: path, line: line, column: column, message: message)
    }
}
