@preconcurrency import Glibc
import Arguments

/// A runnable subcommand: its description (which parsing, `--help`, completions and the manual page
/// are made from) and what it does with the parsed line.
struct Command: Sendable {
    /// The group it sits in (`playlist`, `lab`, `group`); empty at the top.
    var group: String?
    var spec: CommandSpec
    var run: @Sendable (ParsedCommand) async -> Int32

    init(in group: String? = nil, _ spec: CommandSpec, run: @escaping @Sendable (ParsedCommand) async -> Int32) {
        self.group = group
        self.spec = spec
        self.run = run
    }

    var path: [String] { (group.map { [$0] } ?? []) + [spec.name] }
}

/// The `airlab` command tree and its dispatch.
enum Airlab {
    /// Exit status for a command line that does not fit (and for I/O failures, per the CLI's contract).
    static let usageStatus: Int32 = 2

    /// Every command, once, in the order `--help` lists them.
    static let commands: [Command] = [
        PlaylistInspectCommand.command,
        ProbeCommand.command,
        ValidateCommand.command,
        CompareCommand.command,
        SimulateCommand.command,
        DiscoverCommand.command,
        PairCommand.command,
        CastCommand.command,
    ] + ControlCommands.commands + [
        StatusCommand.command,
        WatchCommand.command,
        ConsoleCommand.command,
        CalibrateCommand.command,
        LabRunCommand.command,
        GroupSimulateCommand.command,
        OriginCommand.command,
    ] + ProfileCommands.commands

    /// What each group of commands is for.
    static let groups = [
        "playlist": "Work with HLS playlists offline.",
        "lab": "Run a playlist against a fleet of receivers, with reports.",
        "group": "Watch-together groups: coordinated playback with each participant's own ads.",
        "profile": "Receiver profiles: their values, where each number comes from, and how two differ.",
    ]

    /// The command tree, made from `commands`: a group sits where its first command does.
    static let root = CommandSpec(
        name: "airlab",
        abstract: "Sender and lab tool for airlab, the AirPlay-style receiver emulator for HLS interstitials.",
        subcommands: commands.reduce(into: [CommandSpec]()) { tree, command in
            guard let group = command.group else { return tree.append(command.spec) }
            if let index = tree.firstIndex(where: { $0.name == group }) {
                tree[index].subcommands.append(command.spec)
            } else {
                tree.append(CommandSpec(name: group, abstract: groups[group] ?? "", subcommands: [command.spec]))
            }
        },
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
