@preconcurrency import Glibc
import Arguments

/// A runnable subcommand: its description and what it does with the parsed line.
struct Command: Sendable {
    var path: [String]
    var run: @Sendable (ParsedCommand) async -> Int32
}

/// The `airlab` command tree and its dispatch.
enum Airlab {
    /// Exit status for a command line that does not fit (and for I/O failures, per the CLI's contract).
    static let usageStatus: Int32 = 2

    static let commands: [Command] = [
        PlaylistInspectCommand.command,
        ProbeCommand.command,
        ValidateCommand.command,
        CompareCommand.command,
        SimulateCommand.command,
        DiscoverCommand.command,
        CastCommand.command,
        StatusCommand.command,
        WatchCommand.command,
        LabRunCommand.command,
        GroupSimulateCommand.command,
        OriginCommand.command,
    ] + ControlCommands.commands

    static let root = CommandSpec(
        name: "airlab",
        abstract: "Sender and lab tool for airlab, the AirPlay-style receiver emulator for HLS interstitials.",
        subcommands: [
            CommandSpec(name: "playlist", abstract: "Work with HLS playlists offline.", subcommands: [PlaylistInspectCommand.spec]),
            ProbeCommand.spec,
            ValidateCommand.spec,
            CompareCommand.spec,
            SimulateCommand.spec,
            DiscoverCommand.spec,
            CastCommand.spec,
            ControlCommands.seekSpec,
            ControlCommands.rateSpec,
            ControlCommands.pauseSpec,
            ControlCommands.playSpec,
            ControlCommands.stopSpec,
            StatusCommand.spec,
            WatchCommand.spec,
            CommandSpec(name: "lab", abstract: "Run a playlist against a fleet of receivers, with reports.", subcommands: [LabRunCommand.spec]),
            CommandSpec(name: "group", abstract: "Watch-together groups: coordinated playback with each participant's own ads.", subcommands: [GroupSimulateCommand.spec]),
            OriginCommand.spec,
        ],
        version: PackageVersion.current)

    static func main(_ arguments: [String]) async -> Int32 {
        do {
            switch try ArgumentParser.parse(arguments, root: root) {
            case .help(_, let text), .output(let text):
                print(text, terminator: "")
                return 0
            case .run(let parsed):
                guard let command = commands.first(where: { $0.path == parsed.path }) else {
                    print(HelpFormatter.help(for: root, path: ["airlab"]), terminator: "")
                    return 0
                }
                return await command.run(parsed)
            }
        } catch {
            return usageFailure(error)
        }
    }

    /// Reports a command line that does not fit, in one line on stderr, and gives the exit status.
    static func usageFailure(_ error: UsageError) -> Int32 {
        let path = (["airlab"] + error.commandPath).joined(separator: " ")
        Terminal.error("\(path): \(error.message) (see '\(path) --help')")
        return usageStatus
    }
}

/// Writing to the terminal's two streams.
enum Terminal {
    static func error(_ line: String) {
        fputs(line + "\n", stderr)
    }
}
