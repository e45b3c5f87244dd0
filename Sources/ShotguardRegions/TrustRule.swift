// `trust program=NAME`: a program the user trusts to see everything (their own recorder): its reads raise no covers.
import ShotguardBase
import ShotguardImaging

/// A `trust` line: while `program` records or shares the screen, the shield covers nothing for
/// it. Guard still redacts the screenshots it saves, and its recording is still said. A user's
/// `trust` has no effect under a locked system policy (`RegionsFile.refusedTrusts`).
public struct TrustRule: Sendable, Equatable {
    public var line: Int
    public var program: ProgramName
    /// The line as written, for messages.
    public var source: String
    public var origin: RuleOrigin

    public init(line: Int, program: ProgramName, source: String, origin: RuleOrigin) {
        self.line = line
        self.program = program
        self.source = source
        self.origin = origin
    }
}

/// `trust program=obs`, `trust program=/usr/bin/obs`, `trust program="my recorder"`.
func parseTrustRule(_ tokenized: TokenizedLine, line: Int, origin: RuleOrigin) throws(LineError) -> TrustRule {
    let expected = "expected 'trust program=NAME' (the executable's name, as 'obs') or 'trust program=PATH' (as '/usr/bin/obs')"
    let trust = tokenized.tokens[0]
    guard tokenized.tokens.count > 1 else {
        throw LineError(column: trust.endColumn, message: "'trust' needs a program (\(expected))")
    }
    let token = tokenized.tokens[1]
    guard let (key, valueStart) = splitKey(token), key == "program=" else {
        throw LineError(column: token.column, message: "unknown word '\(token.raw.excerpt())' after 'trust' (\(expected))")
    }
    let value = String(token.characters[valueStart...])
    guard !value.isEmpty else {
        throw LineError(column: token.column(at: valueStart), message: "empty program after 'program=' (\(expected))")
    }
    if value.contains("/"), !value.hasPrefix("/") {
        throw LineError(column: token.column(at: valueStart),
                        message: "a program's path must be absolute (found '\(value.excerpt())'; \(expected))")
    }
    if tokenized.tokens.count > 2 {
        let extra = tokenized.tokens[2]
        throw LineError(column: extra.column, message: "'trust' takes one program a line (found '\(extra.raw.excerpt())' after it)")
    }
    return TrustRule(line: line, program: ProgramName(value), source: tokenized.source, origin: origin)
}
