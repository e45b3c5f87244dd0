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
///   of 24 characters pass, 99% of 32 or more. A token that is hexadecimal but for one or two
///   letters (a git commit, a UUID, a digest, one of whose letters OCR read in upper case) is
///   a hash, not a key: keys in hexadecimal need a `pattern~` rule. Hashes in lower-case hex (git commits, UUIDs) have
///   no upper-case letters and are left alone.
enum KeyMatcher {
    static let minimumRandomLength = 24
    static let minimumEntropy = 3.5

    static func find(in line: LineText) -> [Range<Int>] {
        var matches: [Range<Int>] = []
        for token in tokens(line.scalars) {
            let scalars = Array(line.scalars[token])
            if let known = knownShape(scalars) {
                matches.append((token.lowerBound + known.lowerBound)..<(token.lowerBound + known.upperBound))
            } else if isHighEntropy(scalars) {
                matches.append(token)
            }
        }
        return matches
    }

    private static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCIIAlphanumeric || scalar == "_" || scalar == "-" || scalar == "+" || scalar == "/"
    }

    /// Maximal runs of token characters, each with the `=` that pads it.
    static func tokens(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var tokens: [Range<Int>] = []
        var index = 0
        while index < scalars.count {
            guard isTokenScalar(scalars[index]) else {
                index += 1
                continue
            }
            var end = index
            while end < scalars.count, isTokenScalar(scalars[end]) { end += 1 }
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
        // AWS ids are 20 characters; OCR may read one character as two or two as one.
        ("AKIA", 15, 17, .upperDigits), ("ASIA", 15, 17, .upperDigits), ("AGPA", 15, 17, .upperDigits),
        ("AIDA", 15, 17, .upperDigits), ("AROA", 15, 17, .upperDigits), ("ANPA", 15, 17, .upperDigits),
        ("ghp_", 30, 255, .alphanumeric), ("gho_", 30, 255, .alphanumeric), ("ghu_", 30, 255, .alphanumeric),
        ("ghs_", 30, 255, .alphanumeric), ("ghr_", 30, 255, .alphanumeric), ("github_pat_", 40, 255, .word),
        ("sk_live_", 16, 255, .alphanumeric), ("sk_test_", 16, 255, .alphanumeric), ("pk_live_", 16, 255, .alphanumeric),
        ("pk_test_", 16, 255, .alphanumeric), ("rk_live_", 16, 255, .alphanumeric), ("rk_test_", 16, 255, .alphanumeric),
        ("sk-", 20, 255, .word), ("xoxb-", 10, 255, .word), ("xoxp-", 10, 255, .word), ("xoxa-", 10, 255, .word),
        ("xoxo-", 10, 255, .word), ("xoxs-", 10, 255, .word), ("xoxr-", 10, 255, .word),
        ("AIza", 30, 40, .word), ("glpat-", 20, 255, .word),
    ]

    enum Alphabet {
        case upperDigits, alphanumeric, word

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            switch self {
            case .upperDigits: return scalar.isASCIIUpper || scalar.isASCIIDigit
            case .alphanumeric: return scalar.isASCIIAlphanumeric
            case .word: return scalar.isASCIIAlphanumeric || scalar == "_" || scalar == "-"
            }
        }
    }

    /// The range of a known shape in `token`: its prefix at the token's start or after a
    /// character that is not a letter or digit (as in `AWS_KEY=AKIA…`, `token:ghp_…`).
    static func knownShape(_ token: [Unicode.Scalar]) -> Range<Int>? {
        for shape in shapes {
            let prefix = Array(shape.prefix.unicodeScalars)
            guard token.count >= prefix.count + shape.minimum else { continue }
            for start in 0...(token.count - prefix.count - shape.minimum)
            where start == 0 || !token[start - 1].isASCIIAlphanumeric {
                guard Array(token[start..<(start + prefix.count)]) == prefix else { continue }
                var end = start + prefix.count
                while end < token.count, shape.alphabet.contains(token[end]) { end += 1 }
                let length = end - start - prefix.count
                if length >= shape.minimum, length <= shape.maximum, end == token.count || !token[end].isASCIIAlphanumeric {
                    return start..<end
                }
            }
        }
        return nil
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
        guard upper > 0, lower > 0, digits > 0, longestLowerRun <= 8 else { return false }
        let notHex = body.filter { !($0.isASCIIDigit || ("a"..."f").contains($0) || ("A"..."F").contains($0)) }.count
        guard notHex > 2 else { return false }
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
