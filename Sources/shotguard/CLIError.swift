// The errors that end a command, and the exit code each maps to.

/// Exit codes, as documented in shotguard(1); `shield -- COMMAND` exits with the command's own.
struct ExitCode: Equatable {
    let rawValue: Int32

    static let success = ExitCode(rawValue: 0)
    static let failure = ExitCode(rawValue: 1)
    static let usage = ExitCode(rawValue: 2)
}

/// An error that ends the command with a one-line message on standard error.
struct CLIError: Error, CustomStringConvertible {
    let code: ExitCode
    let message: String

    /// A mistake in the command line or the regions file: exit 2.
    static func usage(_ message: String) -> CLIError { CLIError(code: .usage, message: message) }
    /// Something failed while doing the work: exit 1.
    static func failure(_ message: String) -> CLIError { CLIError(code: .failure, message: message) }
    /// An exit status that the command's output already explains (`status` while not protecting).
    static func quiet(_ code: ExitCode) -> CLIError { CLIError(code: code, message: "") }

    var description: String { message }
}
