// The one description of shotguard's commands: parsing, help text and the docs checks read it.
import ShotguardImaging

/// One option of a command.
struct OptionSpec: Sendable {
    let long: String
    let short: Character?
    /// The placeholder shown in help (`FILE`), or nil for a flag that takes no value.
    let value: String?
    let repeatable: Bool
    let help: String

    init(_ long: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false, help: String) {
        self.long = long
        self.short = short
        self.value = value
        self.repeatable = repeatable
        self.help = help
    }

    var takesValue: Bool { value != nil }
}

/// One subcommand (`redact`, or `regions check` for a nested one).
struct CommandSpec: Sendable {
    let name: String
    let summary: String
    /// The arguments after the options in the usage line, e.g. `IN.png`.
    let arguments: String
    let options: [OptionSpec]
    /// Paragraphs after the options, blank-line separated; single line breaks are reflowed.
    let details: String
    /// Command lines shown last in help, each a complete use of the command.
    var examples: [String] = []
    /// What the words after the options complete to (an input file, an entry's id).
    var operand: ValueCompletion = .none

    func option(named long: String) -> OptionSpec? { options.first { $0.long == long } }
}

extension OptionSpec {
    static let help = OptionSpec("help", short: "h", help: "Show this help and exit.")
    static let output = OptionSpec("output", short: "o", value: "FILE",
                                   help: "Write the PNG to FILE (atomically); '-' writes to standard output.")
    static let regions = OptionSpec("regions", value: "FILE",
                                    help: "Read rules from FILE instead of $XDG_CONFIG_HOME/shotguard/regions.")
    static let compression = OptionSpec("compression", value: "N",
                                        help: "zlib level 0-9 for the PNG (default 1: fast; 9: smallest).")
    static let imageOutput = OptionSpec(
        "output", short: "o", value: "FILE",
        help: "Write the image to FILE (atomically), in the format its extension names "
            + "(\(ImageFormat.writableNames.map { "." + $0 }.joined(separator: " "))); '-' writes PNG to stdout.")
    static let format = OptionSpec("format", value: "FORMAT",
                                   help: "Write FORMAT whatever FILE's extension says: \(ImageFormat.writableNames.joined(separator: ", ")).")
    static let quality = OptionSpec("quality", value: "N",
                                    help: "Quality 1-100 for \(ImageFormat.titles(ImageFormat.allCases.filter(\.takesQuality), last: "and")) "
                                        + "output (default 90).")
    static let noShm = OptionSpec("no-shm", help: "Capture with XGetImage even where MIT-SHM is available.")
}
