// The text of a notification, made safe to show: bounded, without control characters, and
// escaped where the server reads the body as markup.

/// One notification's summary, body and actions, as the agent asked for them.
struct NotificationText: Equatable {
    static let summaryLimit = 120
    static let bodyLimit = 600

    var summary: String
    var body: String
    var actions: [NotificationAction]

    /// Writes Notify's arguments: `(s app_name, u replaces_id, s app_icon, s summary, s body,
    /// as actions, a{sv} hints, i expire_timeout)`.
    func write(to message: BusMessage, appName: String, replacing id: UInt32, expire: Int32,
               capabilities: Set<String>) throws(BusError) {
        try message.append(appName)
        try message.append(id)
        try message.append("")
        try message.append(Self.plain(summary, limit: Self.summaryLimit, newlines: false))
        let body = Self.plain(body, limit: Self.bodyLimit, newlines: true)
        try message.append(capabilities.contains("body-markup") ? Self.escapingMarkup(body) : body)
        let offered = capabilities.contains("actions") ? actions : []
        try message.append(offered.flatMap { [String($0.key.prefix(64)), Self.plain($0.label, limit: 40, newlines: false)] })
        try message.open("a", "{sv}")
        // Urgency "normal" (the server's default; said so that no server guesses otherwise).
        try message.open("e", "sv")
        try message.append("urgency")
        try message.open("v", "y")
        try message.append(UInt8(1))
        try message.close()
        try message.close()
        try message.close()
        try message.append(expire)
    }

    /// `text` cut to `limit` characters (an ellipsis marks the cut), control characters and
    /// invisible format characters (bidirectional overrides that reorder what is shown) as
    /// spaces, newlines kept where `newlines`. What is shown may come from window titles and
    /// file names, which other programs choose.
    static func plain(_ text: String, limit: Int, newlines: Bool) -> String {
        var out = ""
        var count = 0
        for character in text {
            if count == limit {
                out.removeLast()
                out.append("…")
                break
            }
            count += 1
            if character == "\n", newlines {
                out.append(character)
            } else if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control
                || ($0.properties.generalCategory == .format && $0 != "\u{200D}") }) {
                out.append(" ")
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// The body as markup text: `&`, `<` and `>` as entities, so nothing in it is read as a tag.
    static func escapingMarkup(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}
