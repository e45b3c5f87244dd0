// A man page as mandoc renders it to plain text, cut into its sections and subsections.
import Foundation
import ShotguardTestSupport
import XCTest

/// A rendered man page. Reading the rendering rather than the roff source means that fonts,
/// escapes (`\-`) and macro quoting do not matter: what is checked is what a reader sees.
struct ManPage {
    struct Section {
        var title: String
        /// The section's own lines, before its first subsection.
        var lines: [String] = []
        var subsections: [(title: String, lines: [String])] = []

        var allLines: [String] { lines + subsections.flatMap(\.lines) }
        func subsection(_ title: String) -> [String]? { subsections.first { $0.title == title }?.lines }
    }

    var name: String
    var sections: [Section]
    var text: String

    func section(_ title: String) -> Section? { sections.first { $0.title == title } }

    /// Renders `path` (relative to the checkout) with `mandoc -Tascii`, one paragraph per line.
    static func render(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> ManPage {
        let mandoc = try requireTool("mandoc", package: "mandoc", file: file, line: line)
        let result = try runProgram(mandoc, ["-Tascii", "-O", "width=400", repositoryFile(path).path], file: file, line: line)
        XCTAssertEqual(result.status, 0, "mandoc could not render \(path): \(result.stderr)", file: file, line: line)
        // Bold is "X\bX" and underline "_\bX": keep the character after each backspace.
        let text = result.stdoutText.replacing(/.\x{08}/, with: "")
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The first and last non-empty lines are the page's header and footer.
        while lines.last?.isEmpty == true { lines.removeLast() }
        lines = Array(lines.dropFirst().dropLast())

        var sections: [Section] = []
        for text in lines {
            let indent = text.prefix { $0 == " " }.count
            if !text.isEmpty && indent == 0 {
                sections.append(Section(title: text))
            } else if indent == 3, !sections.isEmpty {
                sections[sections.count - 1].subsections.append((String(text.dropFirst(3)), []))
            } else if !sections.isEmpty {
                if sections[sections.count - 1].subsections.isEmpty {
                    sections[sections.count - 1].lines.append(text)
                } else {
                    let last = sections[sections.count - 1].subsections.count - 1
                    sections[sections.count - 1].subsections[last].lines.append(text)
                }
            }
        }
        return ManPage(name: path, sections: sections, text: lines.joined(separator: "\n"))
    }
}

extension Array where Element == String {
    /// Whether one line is a tagged paragraph for `form`: the tag alone on its line, or a short
    /// tag followed by its text (`--ids  Print only ...`).
    func hasTag(_ form: String) -> Bool {
        contains { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            return text == form || text.hasPrefix(form + " ")
        }
    }

    /// The long options that begin a tag line (`-o, --output FILE` gives `--output`).
    var taggedLongOptions: Set<String> {
        Set(compactMap { line in
            // Tags sit at the body indent of 7 columns; their text is indented further.
            guard line.hasPrefix("       -"), !line.hasPrefix("        ") else { return nil }
            return line.firstMatch(of: /--[a-z][a-z0-9-]*/).map { String($0.0) }
        })
    }
}
