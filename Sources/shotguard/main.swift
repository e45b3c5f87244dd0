// Entry point: hands the command line to the dispatcher and exits with its code.
@preconcurrency import Glibc

exit(CLI.run(Array(CommandLine.arguments.dropFirst())).rawValue)
