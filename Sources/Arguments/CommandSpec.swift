/// The static description of a command: its name, what it does, what it takes.
///
/// Help text and parsing both come from this one description, so they cannot drift apart.
public struct CommandSpec: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String?
    public var positionals: [PositionalSpec]
    public var options: [OptionSpec]
    public var subcommands: [CommandSpec]
    /// The executable's version, on a root command only: it makes `--version` print it, and the
    /// manual page carries it.
    public var version: String?

    public init(
        name: String,
        abstract: String,
        discussion: String? = nil,
        positionals: [PositionalSpec] = [],
        options: [OptionSpec] = [],
        subcommands: [CommandSpec] = [],
        version: String? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.positionals = positionals
        self.options = options
        self.subcommands = subcommands
        self.version = version
    }

    func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }
}

/// A positional argument, such as the playlist of `airlab playlist inspect PLAYLIST`.
public struct PositionalSpec: Sendable {
    public var name: String
    public var help: String
    public var isOptional: Bool

    public init(_ name: String, help: String, isOptional: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
    }
}

/// A `--name` option: a flag when it takes no value, otherwise `--name VALUE` or `--name=VALUE`.
public struct OptionSpec: Sendable {
    public var name: String
    /// The placeholder shown in help (`N`, `SECONDS`); nil for a flag.
    public var valueName: String?
    public var help: String
    public var isRepeatable: Bool
    /// Shown as "(default: …)" in help.
    public var defaultValue: String?

    public static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help, isRepeatable: false, defaultValue: nil)
    }

    public static func value(
        _ name: String, _ valueName: String, help: String, default defaultValue: String? = nil, repeatable: Bool = false
    ) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, isRepeatable: repeatable, defaultValue: defaultValue)
    }

    var isFlag: Bool { valueName == nil }

    /// The literal values a placeholder such as `text|json` lists, which completions offer; empty for a
    /// placeholder of upper-case words such as `NAME|FILE` or `SECONDS`, which stand for anything.
    public var choices: [String] {
        guard let valueName, valueName.contains("|") else { return [] }
        let words = valueName.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        let literal = words.allSatisfy { word in
            !word.isEmpty && word.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        }
        return literal ? words : []
    }
}
