// `shotguard protect`: sets or clears _SHOTGUARD_PROTECT on a window, which is then covered with no rule.
import ShotguardBase
import ShotguardImaging
import ShotguardX11
import ShotguardScreen

enum ProtectCommand: Subcommand {
    static let spec = CommandSpec(
        name: "protect", summary: "ask that a window be covered, with no rule naming it",
        arguments: "",
        options: [
            OptionSpec("window", value: "ID", help: "The window (a frame means its client)."),
            OptionSpec("pick", help: "Click the window (Escape cancels)."),
            OptionSpec("off", help: "Clear the request instead of setting it."),
            .help,
        ],
        details: "Sets _SHOTGUARD_PROTECT (CARDINAL, 1) on the window's client, as a program may\n"
            + "do itself: captures and screenshots cover the window, frame included, for as\n"
            + "long as it lives. Window ids are those 'shotguard windows' lists.\n"
            + "Example: shotguard protect --pick",
        examples: ["shotguard protect --pick", "shotguard protect --window 0x3a00007 --off"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .usage("protect: takes no arguments (name the window with --window ID)") }
        let named = try arguments.value("window").map { text throws(CLIError) in try LiveDisplay.windowID(text) }
        guard (named != nil) != arguments.has("pick") else {
            throw .usage("protect: choose the window with either --window ID or --pick")
        }
        let on = !arguments.has("off")
        let display = try LiveDisplay.open()
        let chosen: UInt
        if let named {
            chosen = named
        } else {
            let pick = try LiveDisplay.run { () throws(X11Error) in
                try display.pickWindow { Console.error("click the window to \(on ? "protect" : "unprotect") (Escape cancels)\n") }
            }
            switch pick {
            case .window(let window): chosen = UInt(window)
            case .desktop: throw .failure("protect --pick: that was the desktop, not a window; nothing was changed")
            case .cancelled: throw .failure("protect --pick: cancelled; nothing was changed")
            }
        }
        let info = try LiveDisplay.run { () throws(X11Error) -> WindowInfoLine in
            let client = try display.clientWindow(of: .init(chosen))
            try display.setProtection(on, of: client)
            return WindowInfoLine(try display.windowInfo(client))
        }
        Console.output("\(info.text): " + (on ? "protected (\(Display.protectProperty)=1)\n" : "no longer asks for protection\n"))
    }
}

/// `window 0x… Class/instance "title"`, escaped: names and titles are set by the window's program.
private struct WindowInfoLine {
    let text: String

    init(_ window: WindowInfo) {
        text = "window \(hexID(window.id)) " + "\(window.className)/\(window.instance) \(JSON.quote(window.title))".escapingControlCharacters()
    }
}
