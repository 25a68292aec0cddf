@preconcurrency import Glibc
import Arguments

/// Parses the command line, runs the command it names, and exits with the command's status.
let status = await Airlab.main(Array(CommandLine.arguments.dropFirst()))
exit(status)
