// Keys printed in groups, and hashes that are no keys: the parts of KeyMatcher that read OCR's slips.

extension KeyMatcher {
    /// Groups of one length between single spaces from token `first` (`find`'s "in groups"):
    /// the match, and the token after it.
    static func grouped(_ tokens: [Range<Int>], from first: Int, in scalars: [Unicode.Scalar]) -> (Range<Int>, Int)? {
        let adjacent = { (index: Int) in
            index + 1 < tokens.count && tokens[index + 1].lowerBound == tokens[index].upperBound + 1
                && scalars[tokens[index].upperBound] == " "
        }
        let sizes = [4, 5, 6, 8]
        // The groups' length; the first group may be a character longer or shorter than it, and
        // so may the next (OCR read one character as two, or two as one: "ghp_aB0O5 U4vdjBss",
        // "fiq3gglIK qniSTEH Mnmdktvl").
        var size = tokens[first].count
        if !sizes.contains(size) {
            guard adjacent(first), let near = sizes.first(where: { abs($0 - size) <= 1 && abs($0 - tokens[first + 1].count) <= 1 })
            else { return nil }
            size = near
        }
        // OCR drops or doubles a character now and then: a group one longer or shorter counts,
        // and so does a group of twice the length (a space OCR did not see).
        let fits = { (length: Int) in abs(length - size) <= 1 || length == 2 * size }
        var last = first
        while last - first < 40 {
            // The group at `last`: one token, or, after two groups or more, two or three tokens
            // OCR split one into ("bd Td FXIO" for "bdTdFXlO"), that mix letter cases or digits
            // as a key's do (short words never make a group).
            var end = last
            var length = tokens[last].count
            while !fits(length), length < size, last - first >= 2, end - last < 2, adjacent(end) {
                end += 1
                length += tokens[end].count
            }
            guard fits(length), end == last || mixesKinds((last...end).flatMap { scalars[tokens[$0]] }) else { break }
            // The token after it is the next group, or a shorter last one.
            guard adjacent(end), tokens[end + 1].count <= size + 1 || tokens[end + 1].count == 2 * size else {
                last = end
                break
            }
            last = end + 1
        }
        // The most groups that make a key: a word or two right after it (of the groups' length)
        // may have joined them. (A short word that still makes a key with them is covered with
        // it: a cover a little too wide, never a group of the key left out.)
        guard last - first + 1 >= 4 else { return nil }
        let ends = stride(from: last, through: first + 3, by: -1).filter { end in
            (first...end).allSatisfy { tokens[$0].allSatisfy { isKeyCharacter(scalars[$0]) } }
        }
        let joined = { (end: Int) in (first...end).flatMap { scalars[tokens[$0]] } }
        // A known shape first (its groups alone), else the most groups that look random.
        let end = ends.first { end in
            let joined = joined(end)
            guard let shape = knownShape(joined) else { return false }
            return shape.count * 10 >= joined.count * 8 || isHighEntropy(joined)
        } ?? ends.first { end in
            let joined = joined(end)
            return isHighEntropy(joined) || isMisreadAWSKey(joined[...])
        }
        return end.map { (tokens[first].lowerBound..<tokens[$0].upperBound, $0 + 1) }
    }

    /// Whether `text` holds two of upper-case letters, lower-case letters and digits.
    static func mixesKinds<C: Collection>(_ text: C) -> Bool where C.Element == Unicode.Scalar {
        [text.contains(where: \.isASCIIUpper), text.contains(where: \.isASCIILower), text.contains(where: \.isASCIIDigit)]
            .filter { $0 }.count >= 2
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
        // (A symbol OCR read for a character, `misreadings`, tells nothing either way.)
        let outside = token.filter { !hexLookAlikes.contains($0) && !misreadings.contains($0) }.count
        return outside * 10 <= token.count
    }
}
