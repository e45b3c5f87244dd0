// E-mail addresses: local@domain.tld, with the slips OCR makes around the '@'.

/// Finds e-mail addresses in a line of text: a local part (`isLocal`), an
/// `@` (or `©`, which OCR reads it as in some fonts, possibly with one space on either side, or
/// with a stray mark before or after it: `(@`, `\@`, `@’`, OCR's reading of the ring's edge; or
/// `(2’`, its reading of the whole ring in small serif text), and a domain of at least two labels
/// whose last is two or more letters (`isDomain`, with the slips it allows).
enum EmailMatcher {
    static func find(in line: LineText) -> [Range<Int>] {
        let scalars = line.scalars
        var matches: [Range<Int>] = []
        var index = 0
        while index < scalars.count {
            defer { index += 1 }
            let ring = isRing(scalars, at: index)
            guard isAt(scalars[index]) || ring else { continue }
            // The local part ends at the '@', or one space or stray mark before it; an '@' OCR
            // read twice ("yusuf7@@example.com": the 0 read as one) is one.
            if index + 1 < scalars.count, scalars[index + 1] == "@" { continue }
            var localEnd = index
            if localEnd > 0, scalars[localEnd - 1] == " " || strayMarks.contains(scalars[localEnd - 1]) || scalars[localEnd - 1] == "@" {
                localEnd -= 1
            }
            var start = localEnd
            while start > 0, isLocal(scalars[start - 1]) { start -= 1 }
            // A local part does not start with a dot; dots before it belong to the text around it.
            while start < localEnd, scalars[start] == "." { start += 1 }
            guard start < localEnd, (matches.last?.upperBound ?? 0) <= start else { continue }
            var domainStart = index + (ring ? ringReading.count : 1)
            if domainStart < scalars.count, scalars[domainStart] == " " || strayMarks.contains(scalars[domainStart])
                || marksAfter.contains(scalars[domainStart]) {
                domainStart += 1
            }
            // OCR splits a domain after its narrow first letter now and then ("g Lobex.fr"): a
            // domain is never one letter before a space.
            let split = domainStart + 2 < scalars.count && scalars[domainStart].isASCIILetter && scalars[domainStart + 1] == " "
            guard let end = domainEnd(scalars, from: domainStart) ?? (split ? domainEnd(scalars, from: domainStart + 2) : nil) else {
                continue
            }
            matches.append(start..<end)
            index = end - 1
        }
        return matches
    }

    /// What OCR reads in front of an `@` in some fonts (its ring's left edge, read as a symbol of
    /// its own): never part of an address, so the local part ends before it.
    static let strayMarks: Set<Unicode.Scalar> = ["(", "\\", "[", "{"]
    /// What OCR reads after an `@` in some fonts (the ring's tail), never part of the domain.
    static let marksAfter: Set<Unicode.Scalar> = ["#", "*", "'", "\u{2019}", "\u{2018}"]

    /// How OCR reads a whole `@` in 11 px Liberation Serif: `(2’` (or `(2'`).
    static let ringReading: [Unicode.Scalar] = ["(", "2", "\u{2019}"]

    /// An `@`, or the `©` OCR reads for it in some fonts.
    private static func isAt(_ scalar: Unicode.Scalar) -> Bool { scalar == "@" || scalar == "\u{00A9}" }

    /// Whether an `@` read as `(2’` starts at `index`: right after a local part's character.
    private static func isRing(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        guard index > 0, index + ringReading.count < scalars.count, isLocal(scalars[index - 1]) else { return false }
        return zip(scalars[index..<(index + ringReading.count)], ringReading).allSatisfy { read, ring in
            read == ring || ring == "\u{2019}" && read == "'"
        }
    }

    /// A character of a local part: RFC 5322's `atext` and the dot, but for `=` (in `user=alice@…`
    /// the address starts after it). OCR reads a digit as one of them now and then (`&` for 8).
    private static func isLocal(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCIIAlphanumeric || ".!#$%&'*+-/?^_`{|}~".unicodeScalars.contains(scalar)
    }

    /// Where a domain that starts at `start` ends (exclusive), when it has two or more labels
    /// and a top-level label of two or more letters: as read, or else with one space OCR made up
    /// inside it read past, where what comes before the space is no domain yet ("nor
    /// thwind.co.uk", "examp le.com": OCR spaces wide letter pairs of large monospaced text; the
    /// space it puts after a dot, "le. com", `LineText` takes out). A whole domain takes no word
    /// after it. Words after an address that is no domain yet which make one with it ("me@home
    /// now.ok") are taken too: a cover a few words wider than it needs to be.
    private static func domainEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        // An underscore read for a dot first; else the domain ends before it ("acme.com_2024").
        for spaces in 0...1 {
            for underscores in [true, false] {
                if let end = domainEnd(scalars, from: start, spaces: spaces, underscores: underscores) { return end }
            }
        }
        return nil
    }

    private static func domainEnd(_ scalars: [Unicode.Scalar], from start: Int, spaces: Int, underscores: Bool) -> Int? {
        var end = start
        var domain: [Unicode.Scalar] = []
        var spacesLeft = spaces
        while end < scalars.count {
            let scalar = scalars[end]
            if scalar.isASCIIAlphanumeric || scalar == "-" || scalar == "." {
                domain.append(scalar)
            } else if underscores, scalar == "_", end + 1 < scalars.count, scalars[end + 1].isASCIIAlphanumeric || scalars[end + 1] == "." {
                // A dot read as an underscore ("contoso_net"), or read with one ("mail_.example").
                if scalars[end + 1] != "." { domain.append(".") }
            } else {
                guard scalar == " ", spacesLeft > 0, end + 1 < scalars.count, scalars[end + 1].isASCIIAlphanumeric,
                      !isDomain(domain), !startsAnotherAddress(scalars, at: end + 1) else { break }
                spacesLeft -= 1
            }
            end += 1
        }
        // A sentence's full stop or a trailing dash is not part of the domain.
        while let last = domain.last, last == "." || last == "-" {
            domain.removeLast()
            end -= 1
        }
        let rest = scalars[end...].drop { $0 == " " }
        // A host name in a shell prompt ("user@studio:~$") is no domain without its dot.
        if !domain.contains("."), let next = rest.first, promptMarks.contains(next) { return nil }
        return isDomain(domain, endsLine: rest.isEmpty) ? end : nil
    }

    /// What follows the host name of a shell prompt.
    static let promptMarks: Set<Unicode.Scalar> = [":", "~", "$", "#", "%", ">"]

    /// Whether the word at `index` holds an `@` (or `©`), or is followed by one after a space:
    /// the local part of the next address ("root@server john.doe @example.com"), never the rest
    /// of this one's domain.
    private static func startsAnotherAddress(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        var end = index
        while end < scalars.count, scalars[end] != " " {
            if isAt(scalars[end]) { return true }
            end += 1
        }
        return end + 1 < scalars.count && isAt(scalars[end + 1])
    }

    /// Two or more labels, none empty, the last of two or more letters; or, as OCR reads small
    /// text, one label that ends in a common top-level domain after three or more characters (its
    /// dot lost: "hoolixyz", "acme-corpio"), or a last label of one lower-case letter where the
    /// line ends (OCR lost the line's last glyph: "globex.f"; `x@self.W` is code).
    private static func isDomain(_ domain: [Unicode.Scalar], endsLine: Bool = false) -> Bool {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ !$0.isEmpty }), let top = labels.last else { return false }
        if labels.count == 1 {
            return top.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "-" }
                && dotlessEndings.contains { top.count >= $0.count + 3 && Array(top.suffix($0.count)) == $0 }
        }
        return top.allSatisfy(\.isASCIILetter) && (top.count >= 2 || endsLine && labels[0].count >= 3 && top.allSatisfy(\.isASCIILower))
    }

    /// Top-level domains found in a label whose dot OCR lost: common ones, but for `co`, `me` and
    /// `de`, the endings of too many words and host names ("disco", "home", "node"). A host name
    /// that ends in one ("studio", "intranet") is taken for a domain in prose, not in a prompt.
    static let dotlessEndings = ["com", "org", "net", "xyz", "io", "edu", "gov", "info", "fr", "uk"].map { Array($0.unicodeScalars) }
}
