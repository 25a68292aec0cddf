/// One command of a tree with the words that name it, from the executable on: `["airlab", "playlist",
/// "inspect"]`.
public struct NamedCommand: Sendable {
    public var path: [String]
    public var spec: CommandSpec

    /// The path as one shell word sequence, `airlab playlist inspect`.
    public var title: String { path.joined(separator: " ") }

    /// What the parser accepts on this command besides its own options: `--help` everywhere, and
    /// `--version` on a root that has a version. Help, completions and manual pages list them alike.
    public var builtInOptions: [OptionSpec] {
        var options = [OptionSpec.flag("help", help: "Show this help.")]
        if path.count == 1, spec.version != nil {
            options.append(.flag("version", help: "Print the version."))
        }
        return options
    }

    /// The command's options followed by the built-in ones.
    public var allOptions: [OptionSpec] { spec.options + builtInOptions }
}

extension CommandSpec {
    /// Every command of the tree this spec roots, the root first, each before its subcommands, in the
    /// order they are declared: the one walk completions, manual pages and their tests share.
    public var commandTree: [NamedCommand] {
        var commands: [NamedCommand] = []
        var pending = [NamedCommand(path: [name], spec: self)]
        while let command = pending.popLast() {
            commands.append(command)
            pending += command.spec.subcommands.reversed().map { NamedCommand(path: command.path + [$0.name], spec: $0) }
        }
        return commands
    }
}
