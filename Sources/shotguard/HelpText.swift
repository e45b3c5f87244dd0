// Renders `--help` from the command spec, so help can never disagree with the parser.

extension CommandSpec {
    var helpText: String {
        var lines = ["Usage: \(displayName) \(name.isEmpty ? arguments : "[OPTIONS] \(arguments)")".trimmingTrailingSpace, ""]
        lines.append(summary.prefix(1).uppercased() + summary.dropFirst() + ".")
        if name.isEmpty {
            lines += ["", "Commands:"]
            for command in Commands.specs {
                lines.append("  " + command.name.padding(toLength: 20) + command.summary)
            }
        }
        lines += ["", "Options:"]
        for option in options {
            var left = option.short.map { "-\($0), " } ?? "    "
            left += "--\(option.long)" + (option.value.map { " \($0)" } ?? "")
            lines.append("  " + left.padding(toLength: 26) + option.help)
        }
        if !details.isEmpty { lines += ["", details] }
        return lines.joined(separator: "\n") + "\n"
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
