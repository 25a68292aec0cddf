@preconcurrency import Glibc

/// Parses the command line, runs the receivers until SIGTERM or SIGINT, and exits with the status.
let status = await Airlabd.main(Array(CommandLine.arguments.dropFirst()))
exit(status)
