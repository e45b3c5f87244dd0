// Renders `--help` from the command spec, so help can never disagree with the parser.

extension CommandSpec {
    /// Help text never runs past this column: a terminal of the classic width shows it whole.
    static let helpWidth = 80
    /// Where an option's (and a command's) help starts, and where its later lines go on.
    private static let optionColumn = 28
    private static let commandColumn = 22

    var helpText: String {
        var lines = ["Usage: \(displayName) \(name.isEmpty ? arguments : "[OPTIONS] \(arguments)")".trimmingTrailingSpace, ""]
        lines += Self.wrap(summary.prefix(1).uppercased() + summary.dropFirst() + ".")
        if name.isEmpty {
            lines += ["", "Commands:"]
            for command in Commands.specs {
                lines += Self.hanging("  " + command.name, command.summary, column: Self.commandColumn)
            }
        }
        lines += ["", "Options:"]
        for option in options {
            var left = option.short.map { "-\($0), " } ?? "    "
            left += "--\(option.long)" + (option.value.map { " \($0)" } ?? "")
            lines += Self.hanging("  " + left, option.help, column: Self.optionColumn)
        }
        for paragraph in details.split(separator: "\n\n") {
            lines += [""] + Self.wrap(paragraph.split(separator: "\n").joined(separator: " "))
        }
        if !examples.isEmpty {
            lines += ["", examples.count == 1 ? "Example:" : "Examples:"] + examples.map { "  " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` in lines of at most `helpWidth` columns, broken between words.
    static func wrap(_ text: String, width: Int = helpWidth) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + (line.isEmpty ? [] : [line])
    }

    /// `label` then `text` wrapped beside it from `column`, its later lines indented to it; a
    /// label that leaves no two spaces before the column has the text start on the next line.
    private static func hanging(_ label: String, _ text: String, column: Int) -> [String] {
        let indent = String(repeating: " ", count: column)
        let body = wrap(text, width: helpWidth - column).map { indent + $0 }
        guard label.count + 2 <= column, let first = body.first else { return [label] + body }
        return [label + first.dropFirst(label.count)] + body.dropFirst()
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self + "  " : self + String(repeating: " ", count: length - count)
    }

    var trimmingTrailingSpace: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
