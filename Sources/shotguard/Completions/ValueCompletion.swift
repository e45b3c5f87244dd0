// What a shell offers for an option's value or a command's operand, read from the command model.
import ShotguardImaging

/// The kinds of value the completions know how to offer. Each shell's script turns a kind into
/// its own machinery (bash's compgen, zsh's completion functions, fish's conditions).
enum ValueCompletion: Equatable, Sendable {
    /// Free text (a geometry, a class name, a number of days): nothing to offer.
    case none
    case file
    case folder
    /// A command line for /bin/sh: its first word is a command.
    case command
    /// These words.
    case words([String])
    /// The ids `shotguard windows --ids` prints (none without a display).
    case windowIDs
    /// `primary` and the names `shotguard monitors --names` prints.
    case monitorNames
    /// The ids `shotguard quarantine list` starts its lines with.
    case quarantineIDs
    /// black, pixelate, pixelate:16 and `#` for a colour.
    case fill

    /// Keys a user binds screenshots to, as X keysym names.
    static let keysyms = ["Print", "Sys_Req", "Pause", "Scroll_Lock", "Insert", "Menu"] + (1...12).map { "F\($0)" }
}

extension OptionSpec {
    /// What its value completes to, by the option's name where that says more, else by its
    /// placeholder: a new option with a `FILE`, `DIR`, `CMD`, `KEYSYM` value, or named
    /// `window` or `monitor`, completes without a word more.
    var completion: ValueCompletion {
        guard let value else { return .none }
        switch long {
        case "window": return .windowIDs
        case "monitor": return .monitorNames
        case "fill": return .fill
        case "compression": return .words((0...9).map(String.init))
        case "format": return .words(ImageFormat.writableNames)
        case "quality": return .words(["50", "75", "90", "100"])
        default: break
        }
        switch value {
        case "FILE", "PATH": return .file
        case "DIR": return .folder
        case "CMD": return .command
        case "KEYSYM": return .words(ValueCompletion.keysyms)
        default: return .none
        }
    }
}

/// The command model as the completion scripts need it.
struct CompletionModel {
    let root: CommandSpec
    let commands: [CommandSpec]

    static let current = CompletionModel(root: Commands.root, commands: Commands.specs)

    /// The first words of the commands, in help's order, each once.
    var firstWords: [String] {
        var seen: Set<String> = []
        return commands.map { String($0.name.split(separator: " ")[0]) }.filter { seen.insert($0).inserted }
    }

    /// The first words that name a group of commands (`regions`, `quarantine`).
    var groups: [String] { firstWords.filter { members(of: $0) != nil } }

    /// The second words of `group`'s commands, in help's order; nil when it is not a group.
    func members(of group: String) -> [String]? { CLI.groupMembers(group) }

    /// What the first word stands for, shown beside it: a command's summary, or a group's.
    func summary(of word: String) -> String {
        if let command = commands.first(where: { $0.name == word }) { return command.summary }
        return Commands.groupSummaries[word] ?? (members(of: word) ?? []).joined(separator: ", ")
    }
}
