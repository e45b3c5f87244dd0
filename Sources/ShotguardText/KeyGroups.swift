// Keys printed in groups, and hashes that are no keys: the parts of KeyMatcher that read OCR's slips.

extension KeyMatcher {
    /// Groups of one length between single spaces from token `first` (`find`'s "in groups"):
    /// the match, and the token after it.
    static func grouped(_ tokens: [Range<Int>], from first: Int, in scalars: [Unicode.Scalar]) -> (Range<Int>, Int)? {
        let size = tokens[first].count
        guard [4, 5, 6, 8].contains(size) else { return nil }
        // OCR drops or doubles a character now and then: a group one longer or shorter counts.
        let lengths = (size - 1)...(size + 1)
        var last = first
        while last + 1 < tokens.count, tokens[last + 1].lowerBound == tokens[last].upperBound + 1,
              scalars[tokens[last].upperBound] == " ", lengths.contains(tokens[last].count),
              tokens[last + 1].count <= size + 1, last - first < 40 {
            last += 1
        }
        // (A short word right after a key in groups may join it: a cover a little too wide, never
        // a group of the key left out.)
        guard last - first + 1 >= 4 else { return nil }
        let joined = (first...last).flatMap { scalars[tokens[$0]] }
        guard joined.allSatisfy({ $0.isASCIIAlphanumeric || $0 == "_" || $0 == "-" }) else { return nil }
        if let shape = knownShape(joined), shape.count * 10 >= joined.count * 8 || isHighEntropy(joined) {
            return (tokens[first].lowerBound..<tokens[last].upperBound, last + 1)
        }
        guard isHighEntropy(joined) else { return nil }
        return (tokens[first].lowerBound..<tokens[last].upperBound, last + 1)
    }

    /// Characters OCR makes of hex digits: `O` and `o` of a `0`, `l`, `I`, `i` and `|` of a `1`,
    /// `S` and `s` of a `5`, `G` of a `6`, `B` of an `8`, `Z` and `z` of a `2`, `g` and `q` of a `9`,
    /// and the letters a to f read in the other case.
    static let hexLookAlikes = Set("0123456789abcdefABCDEFOolIi|SsGBZzgq-".unicodeScalars)

    /// A token that is hexadecimal but for a few characters: all but one in ten of its
    /// characters are hex digits or what OCR makes of them (`hexLookAlikes`). A random base62
    /// token holds about 55% of those, so one of 24 characters passes about one time in a
    /// thousand; a UUID or digest read with slips passes.
    static func isHashLike<C: Collection>(_ token: C) -> Bool where C.Element == Unicode.Scalar {
        let outside = token.filter { !hexLookAlikes.contains($0) }.count
        return outside * 10 <= token.count
    }
}
