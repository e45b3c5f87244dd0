// API keys and tokens: the shapes providers give them, and long random-looking tokens.
import Glibc

/// Finds keys in a line of text. A token is a run of letters, digits and `_-+/`, with any `=`
/// padding after it; it is a key when it holds one of the known shapes, or when it looks random:
///
/// - known shapes: AWS access key ids (`AKIA`, `ASIA`… and 16 upper-case letters or digits),
///   GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` and 30 or more letters and digits;
///   `github_pat_` and 40 or more), OpenAI- and Anthropic-style `sk-` keys (20 or more after
///   it), Stripe's `sk_live_`/`pk_test_`/`rk_…`, Slack's `xoxb-`/`xoxp-` (and `xoxa`, `xoxo`,
///   `xoxs`, `xoxr`), Google's `AIza`, GitLab's `glpat-`;
/// - random-looking (`isHighEntropy`): at least `minimumRandomLength` characters with upper-case
///   letters, lower-case letters and digits, no run of more than eight lower-case letters, a
///   Shannon entropy of at least `minimumEntropy` bits per character, and a change between
///   upper case, lower case and digits at 40% or more of its steps (30% when its entropy is
///   4.2 bits or more): a random base62 token changes at about 60% of them, camelCase names
///   such as `getUserAccountSettings2ForCurrentProfile1` at 35% with 4.0 bits, and
///   `AbstractSingletonProxyFactoryBean2024` at 28%. Of random base62 tokens, 97.4% of those
///   of 24 characters pass, 99% of 32 or more. A token that is hexadecimal but for a few
///   characters OCR may have made of hex digits (`isHashLike`: a git commit, a UUID, a digest
///   read with an `O` for a `0` or a `C` for a `c`) is a hash, not a key: keys in hexadecimal
///   need a `pattern~` rule. Hashes in lower-case hex (git commits, UUIDs) have no upper-case
///   letters and are left alone;
/// - in groups: four or more runs of letters and digits of one length (4, 5, 6 or 8, give or take
///   a character OCR dropped or added; the last may be shorter) between single spaces, as
///   consoles print keys to be read out, that make a known shape or a random-looking token once
///   joined.
enum KeyMatcher {
    static let minimumRandomLength = 24
    static let minimumEntropy = 3.5

    static func find(in line: LineText) -> [Range<Int>] {
        let scalars = line.scalars
        let tokens = tokens(scalars)
        let uuids = uuidSpans(scalars)
        var matches: [Range<Int>] = []
        var index = 0
        while index < tokens.count {
            if uuids.contains(where: { $0.overlaps(tokens[index]) }) {
                index += 1
            } else if let (range, next) = grouped(tokens, from: index, in: scalars) {
                matches.append(range)
                index = next
            } else if let (range, next) = misreadAWSKey(tokens, from: index, in: scalars) {
                matches.append(range)
                index = next
            } else if let (range, next) = [knownShape(tokens, from: index, in: scalars), randomRun(tokens, from: index, in: scalars)]
                .compactMap({ $0 }).max(by: { $0.0.upperBound < $1.0.upperBound }) {
                // A known shape's groups may end where a random run of them goes on (a group OCR
                // split): the match that reaches further is taken.
                matches.append(range)
                index = next
            } else {
                index += 1
            }
        }
        if let prefix = danglingPrefix(tokens, in: scalars), !matches.contains(where: { $0.overlaps(prefix) }) { matches.append(prefix) }
        // A key made of pieces may have taken a UUID for one.
        return matches.filter { match in !uuids.contains { $0.overlaps(match) } }
    }

    /// A known prefix that ends the line (`user=sk_l ive_`): the line finder cut a key printed
    /// in groups after its prefix, in a monospaced font's wide spaces, and its groups are read
    /// in a crop of their own, which covers them. The prefix is covered too (it is one of a
    /// key's words). Prefixes of four or more characters that end in `_` or `-`, in up to three
    /// pieces; a stem with no separator (`sk_live`) or a two-letter `sk-` is left alone.
    private static func danglingPrefix(_ tokens: [Range<Int>], in scalars: [Unicode.Scalar]) -> Range<Int>? {
        guard let last = tokens.last, scalars[last.upperBound...].allSatisfy({ $0 == " " }) else { return nil }
        var first = tokens.count - 1
        while first > 0, tokens.count - first < 3, tokens[first - 1].upperBound + 1 == tokens[first].lowerBound,
              scalars[tokens[first - 1].upperBound] == " " {
            first -= 1
        }
        for piece in first..<tokens.count {
            // The pieces joined, and where each of their characters is in the line.
            let origin = tokens[piece...].flatMap { Array($0) }
            let joined = origin.map { scalars[$0] }
            for prefix in danglingPrefixes where joined.count >= prefix.count && Array(joined.suffix(prefix.count)) == prefix {
                let start = joined.count - prefix.count
                // A label glued before it ("user=") is no part of it; a word ending in it is no prefix.
                guard start == 0 || !joined[start - 1].isASCIIAlphanumeric else { continue }
                return origin[start]..<last.upperBound
            }
        }
        return nil
    }

    static let danglingPrefixes = shapes.map(\.prefix).filter { $0.count >= 4 && ($0.hasSuffix("_") || $0.hasSuffix("-")) }
        .map { Array($0.unicodeScalars) }

    /// The spans shaped like a UUID: groups of 8, 4, 4, 4 and 12 letters or digits joined by
    /// dashes, between characters that are neither. A UUID is a hash whatever OCR made of its
    /// letters ("fOe8-12c8F6334846": an `0` read `O`, an `f` read `F`), and is never a key.
    static func uuidSpans(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        let groups = [8, 4, 4, 4, 12]
        let length = groups.reduce(0, +) + groups.count - 1
        guard scalars.count >= length else { return [] }
        var spans: [Range<Int>] = []
        for start in 0...(scalars.count - length) where start == 0 || !scalars[start - 1].isASCIIAlphanumeric {
            var index = start
            var shaped = true
            for (number, count) in groups.enumerated() {
                if number > 0 {
                    guard scalars[index] == "-" else { shaped = false; break }
                    index += 1
                }
                guard scalars[index..<(index + count)].allSatisfy(\.isASCIIAlphanumeric) else { shaped = false; break }
                index += count
            }
            if shaped, index == scalars.count || !scalars[index].isASCIIAlphanumeric { spans.append(start..<index) }
        }
        return spans
    }

    /// The most pieces a misread AWS id is taken from: printed in groups (8, 8 and 4), OCR
    /// also splits a group now and then ("AK TAE104P SRY CRMA JAOX").
    static let maximumAWSPieces = 6

    /// An AWS access key id whose prefix OCR misread (`isMisreadAWSKey`) in token `first`, or in
    /// it and the pieces after it joined to 19 to 21 characters ("AKLACTWL ANTXXFRH ZVAO",
    /// "AKT ADDBGUQOFUDW/NO3 CN"): the match and the token after it. Pieces that start with a
    /// prefix read right are a known shape's (`knownShape`), or no key ("ASIA PACIFIC 2024 …").
    private static func misreadAWSKey(_ tokens: [Range<Int>], from first: Int,
                                      in scalars: [Unicode.Scalar]) -> (Range<Int>, Int)? {
        let pieces = pieces(tokens, from: first, in: scalars, limit: maximumAWSPieces)
        if pieces.count > 1, ["AKIA", "ASIA"].contains(where: { scalars[tokens[first]].starts(with: $0.unicodeScalars) }) {
            return nil
        }
        // The most pieces that make one: a group OCR cut off the end ("… CN") is the key's.
        var joined: [Unicode.Scalar] = []
        var found: (Range<Int>, Int)?
        for (count, piece) in pieces.enumerated() {
            joined += scalars[piece]
            guard joined.count <= 21 else { break }
            if isMisreadAWSKey(joined[...]) { found = (tokens[first].lowerBound..<piece.upperBound, first + count + 1) }
        }
        return found
    }

    /// An AWS access key id whose prefix OCR misread by one character ("AAIA…", "AKTIA…"): 19
    /// to 21 upper-case letters and digits (a `/` among them is a misread `J` or `1`), with a
    /// digit among them, whose first four or five are `AKIA` or `ASIA` with one character
    /// changed or added.
    static func isMisreadAWSKey(_ token: ArraySlice<Unicode.Scalar>) -> Bool {
        guard (19...21).contains(token.count), token.allSatisfy({ $0.isASCIIUpper || $0.isASCIIDigit || $0 == "/" }),
              token.contains(where: \.isASCIIDigit) else { return false }
        let head = Array(token.prefix(5))
        for prefix in ["AKIA", "ASIA"].map({ Array($0.unicodeScalars) }) {
            if zip(head.prefix(4), prefix).filter({ $0 != $1 }).count <= 1 { return true }
            // One character added inside the prefix.
            for skipped in 1..<5 {
                var rest = head
                rest.remove(at: skipped)
                if rest == prefix { return true }
            }
        }
        return false
    }

    /// The most tokens one key may be split into: OCR puts spaces inside long tokens, and drops
    /// the underscore after `sk_live` or `ghp` now and then.
    static let maximumPieces = 3
    /// The most pieces of a random-looking key: the spaces OCR makes up there also cut off
    /// pieces of one to three characters ("…Oag1 1 bavPS…", "…0l66U HU Ipf…").
    static let maximumRandomPieces = 12

    /// The tokens from `first` that follow each other with one space between: the pieces a key
    /// split by OCR may be in.
    private static func pieces(_ tokens: [Range<Int>], from first: Int, in scalars: [Unicode.Scalar],
                               limit: Int = maximumPieces) -> [Range<Int>] {
        var pieces = [tokens[first]]
        var index = first + 1
        while index < tokens.count, pieces.count < limit, tokens[index].lowerBound == pieces.last!.upperBound + 1,
              scalars[pieces.last!.upperBound] == " " {
            pieces.append(tokens[index])
            index += 1
        }
        return pieces
    }

    /// A known shape that starts in token `first`, its body continued into the following pieces
    /// while it is shorter than the shape's minimum (a prefix whose separator OCR dropped, as
    /// `sk_live tbAq…`, counts). Past `maximumPieces`, the pieces must be a key's groups
    /// (`sk_live_HN lyonk 2ps9P YNHXP ISXZA xD`): key characters that, joined, mix letter cases
    /// or digits, with a digit or an inner capital in one of them (`isGroupedBody`): words after
    /// a prefix, in lower or Title Case, are not taken for its body.
    /// Returns the match and the token after it.
    private static func knownShape(_ tokens: [Range<Int>], from first: Int,
                                   in scalars: [Unicode.Scalar]) -> (Range<Int>, Int)? {
        let pieces = pieces(tokens, from: first, in: scalars, limit: maximumRandomPieces)
        var joined: [Unicode.Scalar] = []
        var origin: [Int] = []
        for (count, piece) in pieces.enumerated() {
            guard count < maximumPieces || scalars[piece].allSatisfy(isKeyCharacter) else { return nil }
            joined += scalars[piece]
            origin += Array(piece)
            guard let shape = knownShape(joined) else { continue }
            // A shape that starts in a later piece is found from that piece.
            guard tokens[first].contains(origin[shape.lowerBound]) else { return nil }
            if count >= maximumPieces, !isGroupedBody(pieces[1...count].map { scalars[$0] }) { return nil }
            var end = origin[shape.upperBound - 1] + 1
            var next = first + count + 1
            // A key OCR split into pieces (the first may look whole already): the pieces after
            // the one that completed it are its tail when they mix letter cases or digits
            // ("TsY"), not when they are words ("and"). A key printed in groups (two or more
            // pieces of one length before the one that completed it) also takes the groups of
            // that length after it whatever their letters, and a shorter last group
            // ("… 2Jd8y PBGWU RB").
            if shape.upperBound == joined.count {
                let groups = count >= 3 ? Set(pieces[1..<count].map(\.count)) : []
                let group = groups.count == 1 ? groups.first : nil
                for tail in pieces.dropFirst(count + 1) {
                    let part = scalars[tail]
                    let isGroup = group.map { part.count <= $0 && part.allSatisfy(\.isASCIIAlphanumeric) } ?? false
                    guard mixesKinds(part) || isGroup, part.allSatisfy(isKeyCharacter) else { break }
                    end = tail.upperBound
                    next += 1
                    // A shorter group is the last.
                    if let group, part.count < group { break }
                }
            }
            return (origin[shape.lowerBound]..<end, next)
        }
        return nil
    }

    /// Whether the pieces after a known prefix's own are a key's body in groups: joined, letters
    /// of both cases or digits among letters, changing kind at a fifth or more of their steps
    /// (a random base62 body at about 60%; "the prefix of" at none), and a digit or a capital
    /// after a piece's first character in one of them (Title Case words change kind at 40%).
    static func isGroupedBody(_ pieces: [ArraySlice<Unicode.Scalar>]) -> Bool {
        let body = pieces.flatMap { $0 }
        let inner = pieces.contains { piece in piece.contains(where: \.isASCIIDigit) || piece.dropFirst().contains(where: \.isASCIIUpper) }
        return inner && mixesKinds(body) && kindChanges(body) * 5 >= body.count - 1
    }

    /// How many times `text` changes between lower case, upper case, digits and other characters.
    static func kindChanges<C: Collection>(_ text: C) -> Int where C.Element == Unicode.Scalar {
        let kinds = text.map { $0.isASCIILower ? 0 : $0.isASCIIUpper ? 1 : $0.isASCIIDigit ? 2 : 3 }
        return zip(kinds, kinds.dropFirst()).filter { $0 != $1 }.count
    }

    /// A random-looking token, or two or three pieces of one that OCR split, each piece random-
    /// looking on its own (`isRandomPiece`): "Bearer" or "token" before a key is no piece of it.
    private static func randomRun(_ tokens: [Range<Int>], from first: Int,
                                  in scalars: [Unicode.Scalar]) -> (Range<Int>, Int)? {
        let pieces = pieces(tokens, from: first, in: scalars, limit: maximumRandomPieces)
        if isHighEntropy(Array(scalars[pieces[0]])) { return (pieces[0], first + 1) }
        var joined: [Unicode.Scalar] = []
        var found: (Range<Int>, Int)?
        for (count, piece) in pieces.enumerated() {
            // A piece as long as the one before it is the next group of a key printed in groups
            // ("…8XE3x IKCMh 0O3KW"), whatever its letters.
            let isNextGroup = count > 0 && piece.count == pieces[count - 1].count && scalars[piece].allSatisfy(\.isASCIIAlphanumeric)
            guard isRandomPiece(scalars[piece]) || isNextGroup || isKeyFragment(scalars[piece], first: count == 0) else { break }
            joined += scalars[piece]
            // A short piece is taken only with a piece after it: a key ends in one of its own.
            if count > 0, piece.count > 3, isHighEntropy(joined) {
                found = (pieces[0].lowerBound..<piece.upperBound, first + count + 1)
            }
        }
        return found
    }

    /// A piece OCR split off a random token with a space it made up ("rDEYAOY 4aQOXAs…", "…Oag1
    /// 1 bavPSj…"): after the first, one to three letters or digits, between two longer pieces;
    /// the first, four or more that hold a digit or two upper-case letters among lower-case
    /// ones or digits (a label such as "Token" before a key is not taken in). The joined run
    /// must still look random.
    private static func isKeyFragment(_ piece: ArraySlice<Unicode.Scalar>, first: Bool) -> Bool {
        guard piece.allSatisfy(\.isASCIIAlphanumeric) else { return false }
        if !first { return piece.count <= 3 }
        let upper = piece.filter(\.isASCIIUpper).count, lower = piece.filter(\.isASCIILower).count
        let digits = piece.filter(\.isASCIIDigit).count
        return piece.count >= 4 && [upper > 0, lower > 0, digits > 0].filter { $0 }.count >= 2 && (digits > 0 || upper >= 2)
    }

    /// Four or more characters that change between upper case, lower case and digits at least
    /// twice and at a third or more of their steps.
    private static func isRandomPiece(_ piece: ArraySlice<Unicode.Scalar>) -> Bool {
        guard piece.count >= 4 else { return false }
        let changes = kindChanges(piece)
        return changes >= 2 && changes * 3 >= piece.count - 1
    }

    private static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCIIAlphanumeric || scalar == "_" || scalar == "-" || scalar == "+" || scalar == "/"
    }

    /// Symbols OCR reads for a letter or digit of a key in small text (`l` read `]`, `J` read
    /// `}`, `Y` read `¥`, a gap read `'`, a `0` read `@` or `®`, an `8` read `&`, a `t` read `¢`,
    /// a `7` read `?`; `©`, `£`, `€` and `§` alike): inside a token, between token characters, or at its end before another
    /// token, they are part of it, and a known shape's body takes them as the characters they
    /// stand for.
    static let misreadings: Set<Unicode.Scalar> = ["]", "[", "}", "{", ")", "(", "|", "'", "\u{2019}", "\u{00A5}", "!",
                                                   "@", "&", "?", "\u{00AE}", "\u{00A9}", "\u{00A2}", "\u{00A3}", "\u{20AC}",
                                                   "\u{00A7}",
                                                   // An accent read onto a small letter ("Fsét0l66U" for "Fs8t0l66U").
                                                   "\u{00E9}", "\u{00E8}", "\u{00EA}", "\u{00E1}", "\u{00F3}", "\u{00ED}",
                                                   "\u{00FC}", "\u{00F6}"]

    /// Whether a token goes on after the misread symbol at `index`: a token character follows it,
    /// or one space and a token character ("AUER) KTHYQ", a group of a key ending in one).
    private static func continues(after index: Int, in scalars: [Unicode.Scalar]) -> Bool {
        guard index + 1 < scalars.count else { return false }
        if isTokenScalar(scalars[index + 1]) { return true }
        return scalars[index + 1] == " " && index + 2 < scalars.count && isTokenScalar(scalars[index + 2])
    }

    /// Whether `scalar` may be part of a key as OCR read it.
    static func isKeyCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCIIAlphanumeric || scalar == "_" || scalar == "-" || misreadings.contains(scalar)
    }

    /// Maximal runs of token characters (with the misread symbols between them), each with the
    /// `=` that pads it.
    static func tokens(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var tokens: [Range<Int>] = []
        var index = 0
        while index < scalars.count {
            // A group of a key may start with a misread symbol ("midZi |6RW4"): one space after a
            // token, before a token character.
            let startsGroup = misreadings.contains(scalars[index]) && index >= 2 && index + 1 < scalars.count
                && scalars[index - 1] == " " && isTokenScalar(scalars[index - 2]) && isTokenScalar(scalars[index + 1])
            guard isTokenScalar(scalars[index]) || startsGroup else {
                index += 1
                continue
            }
            var end = index
            while end < scalars.count, isTokenScalar(scalars[end]) || misreadings.contains(scalars[end]) && continues(after: end, in: scalars) {
                end += 1
            }
            var padded = end
            while padded < scalars.count, padded - end < 2, scalars[padded] == "=" { padded += 1 }
            // `NAME=value`: an '=' followed by more token characters is an assignment, not padding.
            if padded < scalars.count, isTokenScalar(scalars[padded]) { padded = end }
            tokens.append(index..<padded)
            index = max(padded, end)
        }
        return tokens
    }

    /// The known prefixes, and how many token characters (letters, digits, `_`, `-`) must follow.
    private static let shapes: [(prefix: String, minimum: Int, maximum: Int, alphabet: Alphabet)] = [
        // AWS ids are 20 characters; OCR may read one character as two (up to three times in
        // 9-11 px text: "AKIANX77WJILJI6Q09SHRBY") or lose one or two ("AKIAPS21 V4JDYFH2 OW").
        ("AKIA", 14, 19, .upperDigits), ("ASIA", 14, 19, .upperDigits), ("AGPA", 14, 19, .upperDigits),
        ("AIDA", 14, 19, .upperDigits), ("AROA", 14, 19, .upperDigits), ("ANPA", 14, 19, .upperDigits),
        ("ghp_", 30, 255, .alphanumeric), ("gho_", 30, 255, .alphanumeric), ("ghu_", 30, 255, .alphanumeric),
        ("ghs_", 30, 255, .alphanumeric), ("ghr_", 30, 255, .alphanumeric), ("github_pat_", 40, 255, .word),
        ("sk_live_", 16, 255, .alphanumeric), ("sk_test_", 16, 255, .alphanumeric), ("pk_live_", 16, 255, .alphanumeric),
        ("pk_test_", 16, 255, .alphanumeric), ("rk_live_", 16, 255, .alphanumeric), ("rk_test_", 16, 255, .alphanumeric),
        ("sk-", 20, 255, .word), ("xoxb-", 10, 255, .word), ("xoxp-", 10, 255, .word), ("xoxa-", 10, 255, .word),
        ("xoxo-", 10, 255, .word), ("xoxs-", 10, 255, .word), ("xoxr-", 10, 255, .word),
        ("AIza", 30, 40, .word), ("glpat-", 20, 255, .word),
    ]

    /// The prefixes that end in `_` or `-` again without it, for keys whose separator OCR
    /// dropped (`sk_livetbAq…` once its pieces are joined); the body must be a little longer.
    /// A stem of two letters (`sk`) would make a key of any long word starting with them.
    private static let stems = shapes.filter { ($0.prefix.hasSuffix("_") || $0.prefix.hasSuffix("-")) && $0.prefix.count > 3 }.map {
        (prefix: String($0.prefix.dropLast()), minimum: $0.minimum + 4, maximum: $0.maximum, alphabet: $0.alphabet)
    }

    enum Alphabet {
        case upperDigits, alphanumeric, word

        /// Whether `scalar` is in the alphabet, or a symbol OCR reads for one of its characters
        /// (an AWS id has no `/`: one inside it is a misread `J` or `1`; a lower-case letter
        /// shaped like its capital or a digit is a misread one, `maximumLowerCaseSlips` times).
        func contains(_ scalar: Unicode.Scalar) -> Bool {
            if misreadings.contains(scalar) { return true }
            switch self {
            case .upperDigits: return scalar.isASCIIUpper || scalar.isASCIIDigit || scalar == "/" || upperLookAlikes.contains(scalar)
            case .alphanumeric: return scalar.isASCIIAlphanumeric
            case .word: return scalar.isASCIIAlphanumeric || scalar == "_" || scalar == "-"
            }
        }
    }

    /// The most lower-case letters an AWS id's body may hold: OCR reads `J` as `j` or `I` as `i`
    /// in small text ("AKIA 65PN 4QCj CIIN QDFD"), seldom more than twice in one id.
    static let maximumLowerCaseSlips = 2

    /// Lower-case letters shaped like their capital or a digit (`c o s u v w x z` and `j i l k p`).
    static let upperLookAlikes = Set("cosuvwxzjilkp".unicodeScalars)

    /// The range of a known shape in `token`: its prefix at the token's start or after a
    /// character that is not a letter or digit (as in `AWS_KEY=AKIA…`, `token:ghp_…`); Slack's
    /// `xox…-` anywhere (OCR glues a word before it: "ifxoxb-2381…"). A Stripe key whose `live`
    /// or `test` OCR misread by one character (`sk_ive_`, `sk_lLive_`) counts.
    static func knownShape(_ token: [Unicode.Scalar]) -> Range<Int>? {
        for shape in shapes + stems {
            let prefix = Array(shape.prefix.unicodeScalars)
            let distinct = shape.prefix.hasPrefix("xox") && shape.prefix.hasSuffix("-")
            guard token.count >= prefix.count + shape.minimum else { continue }
            for start in 0...(token.count - prefix.count - shape.minimum)
            where start == 0 || !token[start - 1].isASCIIAlphanumeric || distinct {
                guard Array(token[start..<(start + prefix.count)]) == prefix else { continue }
                if let end = body(of: token, from: start + prefix.count, minimum: shape.minimum, maximum: shape.maximum,
                                  alphabet: shape.alphabet) {
                    return start..<end
                }
            }
        }
        return misreadStripeKey(token) ?? misreadSlackToken(token)
    }

    /// A Slack token whose `xoxb-` (or `xoxp-`…) OCR misread by a letter (`xomb-`, `xaxb-`):
    /// then its two runs of digits (9 or more, and 9 or more) between dashes, as Slack's own
    /// are, and its body.
    private static func misreadSlackToken(_ token: [Unicode.Scalar]) -> Range<Int>? {
        for start in token.indices where (start == 0 || !token[start - 1].isASCIIAlphanumeric) && start + 5 < token.count {
            guard token[start] == "x", token[start + 4] == "-",
                  ["xoxb", "xoxp"].contains(where: { isOneEditAway(Array(token[start..<(start + 4)]), Array($0.unicodeScalars)) })
            else { continue }
            var index = start + 5
            for _ in 0..<2 {
                let digits = token[index...].prefix { $0.isASCIIDigit }.count
                guard digits >= 9, index + digits < token.count, token[index + digits] == "-" else { return nil }
                index += digits + 1
            }
            guard let end = body(of: token, from: start + 5, minimum: 30, maximum: 255, alphabet: .word) else { continue }
            return start..<end
        }
        return nil
    }

    /// Where a body of `minimum` to `maximum` characters of `alphabet` that starts at `start`
    /// ends, when the token ends there or goes on in something that is no letter or digit. A
    /// body that runs into a URL's next parameter or a host (`AKIA…&Expires=`, `AIza…&libraries`,
    /// `AKIA…@prod`: `&`, `?` and `@` are symbols OCR reads for characters too) ends before it.
    private static func body(of token: [Unicode.Scalar], from start: Int, minimum: Int, maximum: Int,
                             alphabet: Alphabet) -> Int? {
        if let end = wholeBody(of: token, from: start, minimum: minimum, maximum: maximum, alphabet: alphabet) { return end }
        guard let stop = token[start...].firstIndex(where: { ["&", "?", "@"].contains($0) }) else { return nil }
        return wholeBody(of: Array(token[..<stop]), from: start, minimum: minimum, maximum: maximum, alphabet: alphabet)
    }

    private static func wholeBody(of token: [Unicode.Scalar], from start: Int, minimum: Int, maximum: Int,
                                  alphabet: Alphabet) -> Int? {
        var end = start
        var slips = 0
        while end < token.count, alphabet.contains(token[end]) {
            if alphabet == .upperDigits, token[end].isASCIILower {
                slips += 1
                guard slips <= maximumLowerCaseSlips else { return nil }
            }
            end += 1
        }
        let length = end - start
        guard length >= minimum, length <= maximum, end == token.count || !token[end].isASCIIAlphanumeric else { return nil }
        return end
    }

    /// A Stripe key (`sk_`, `pk_` or `rk_`, then `live_` or `test_`, then 16 or more letters
    /// and digits) whose `live` or `test` OCR read with one letter lost, added or changed, or
    /// whose first `_` it read as a space (`sk live_…`, joined from its pieces as `sklive_…`),
    /// or both (`sk live akih…`, with a body of 20 or more as a stem's).
    private static func misreadStripeKey(_ token: [Unicode.Scalar]) -> Range<Int>? {
        for start in token.indices where (start == 0 || !token[start - 1].isASCIIAlphanumeric) && start + 3 < token.count {
            guard ["s", "p", "r"].contains(token[start]), token[start + 1] == "k" else { continue }
            let underscore = token[start + 2] == "_"
            if !underscore, start + 6 < token.count, ["live", "test"].contains(where: { Array(token[(start + 2)..<(start + 6)]) == Array($0.unicodeScalars) }),
               token[start + 6] != "_", let end = body(of: token, from: start + 6, minimum: 20, maximum: 255, alphabet: .alphanumeric) {
                return start..<end
            }
            let middleStart = start + (underscore ? 3 : 2)
            var middleEnd = middleStart
            while middleEnd < token.count, token[middleEnd].isASCIILetter { middleEnd += 1 }
            let middle = Array(token[middleStart..<middleEnd])
            let isMiddle = { (word: String) in
                let word = Array(word.unicodeScalars)
                return underscore ? isOneEditAway(middle, word) : middle == word
            }
            guard middleEnd < token.count, token[middleEnd] == "_", isMiddle("live") || isMiddle("test"),
                  let end = body(of: token, from: middleEnd + 1, minimum: 16, maximum: 255, alphabet: .alphanumeric) else { continue }
            return start..<end
        }
        return nil
    }

    /// Whether `a` becomes `b` by one letter lost, added or changed (not none).
    static func isOneEditAway(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
        if a.count == b.count { return zip(a, b).filter { $0 != $1 }.count == 1 }
        let (short, long) = a.count < b.count ? (a, b) : (b, a)
        guard long.count == short.count + 1 else { return false }
        return long.indices.contains { index in
            var shortened = long
            shortened.remove(at: index)
            return shortened == short
        }
    }

    /// A long token that reads as random (see the type's documentation).
    static func isHighEntropy(_ token: [Unicode.Scalar]) -> Bool {
        var body = token[...]
        while body.last == "=" { body = body.dropLast() }
        guard body.count >= minimumRandomLength else { return false }
        var upper = 0, lower = 0, digits = 0, lowerRun = 0, longestLowerRun = 0, changes = 0
        var counts: [Unicode.Scalar: Int] = [:]
        var previousClass = -1
        for scalar in body {
            counts[scalar, default: 0] += 1
            let characterClass = scalar.isASCIILower ? 0 : scalar.isASCIIUpper ? 1 : scalar.isASCIIDigit ? 2 : 3
            if previousClass >= 0, characterClass != previousClass { changes += 1 }
            previousClass = characterClass
            if scalar.isASCIILower {
                lower += 1
                lowerRun += 1
                longestLowerRun = max(longestLowerRun, lowerRun)
            } else {
                lowerRun = 0
                if scalar.isASCIIUpper { upper += 1 }
                if scalar.isASCIIDigit { digits += 1 }
            }
        }
        guard upper > 0, lower > 0, digits > 0, longestLowerRun <= 8, !isHashLike(body) else { return false }
        let bits = entropy(counts.values, total: body.count)
        let changeRate = Double(changes) / Double(body.count - 1)
        return bits >= minimumEntropy && (changeRate >= 0.4 || changeRate >= 0.3 && bits >= 4.2)
    }

    /// Shannon entropy in bits per character of a distribution with these counts.
    static func entropy<C: Collection>(_ counts: C, total: Int) -> Double where C.Element == Int {
        let total = Double(total)
        return counts.reduce(0.0) { sum, count in
            let p = Double(count) / total
            return sum - p * log2(p)
        }
    }
}
