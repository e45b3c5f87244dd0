// Opening the X display for a command, with X11 errors turned into exit-1 failures.
import ShotguardX11

enum LiveDisplay {
    static func open() throws(CLIError) -> Display {
        do throws(X11Error) {
            return try Display()
        } catch {
            throw .failure(error.message)
        }
    }

    /// Runs an X11 step, turning its error into a failure that ends the command.
    static func run<T>(_ body: () throws(X11Error) -> T) throws(CLIError) -> T {
        do throws(X11Error) {
            return try body()
        } catch {
            throw .failure(error.message)
        }
    }

    /// Parses a window id as X tools print it (`0x1a00007`) or in decimal.
    static func windowID(_ text: String) throws(CLIError) -> UInt {
        let id = text.lowercased().hasPrefix("0x") ? UInt(text.dropFirst(2), radix: 16) : UInt(text)
        guard let id, id != 0 else {
            throw .usage("--window: '\(text)' is not a window id (expected e.g. 0x1a00007; see 'shotguard windows')")
        }
        return id
    }
}
