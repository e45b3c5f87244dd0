// Words as a list in a sentence ("PNG, JPEG or WebP"), for help text and "expected" messages.

extension String {
    /// `items` as a sentence lists them: "a", "a or b", "a, b or c" (`last` joins the last two:
    /// "or", "and"); "" for none.
    public init(listing items: [String], last: String = "or") {
        guard let final = items.last, items.count > 1 else {
            self = items.first ?? ""
            return
        }
        self = items.dropLast().joined(separator: ", ") + " \(last) " + final
    }
}
