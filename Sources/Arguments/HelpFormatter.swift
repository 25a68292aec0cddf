/// Renders the help text of a command from its `CommandSpec`.
public enum HelpFormatter {
    public static func help(for spec: CommandSpec, path: [String]) -> String {
        var lines: [String] = []
        lines.append("\(path.joined(separator: " ")): \(spec.abstract)")
        lines.append("")
        lines.append("USAGE: \(usage(for: spec, path: path))")
        if let discussion = spec.discussion {
            lines.append("")
            lines.append(discussion)
        }
        if !spec.subcommands.isEmpty {
            lines.append("")
            lines.append("COMMANDS:")
            lines.append(contentsOf: table(spec.subcommands.map { ($0.name, $0.abstract) }))
        }
        if !spec.positionals.isEmpty {
            lines.append("")
            lines.append("ARGUMENTS:")
            lines.append(contentsOf: table(spec.positionals.map { ($0.name, $0.help) }))
        }
        let builtIn = NamedCommand(path: path, spec: spec).builtInOptions.map { ($0.name == "help" ? "-h, --help" : label($0), $0.help) }
        let options = spec.options.map { (label($0), describe($0)) } + builtIn
        lines.append("")
        lines.append("OPTIONS:")
        lines.append(contentsOf: table(options))
        return lines.joined(separator: "\n") + "\n"
    }

    public static func usage(for spec: CommandSpec, path: [String]) -> String {
        var parts = path
        if !spec.subcommands.isEmpty {
            parts.append("COMMAND")
        }
        for option in spec.options {
            parts.append("[\(label(option))]")
        }
        for positional in spec.positionals {
            parts.append(positional.isOptional ? "[\(positional.name)]" : positional.name)
        }
        return parts.joined(separator: " ")
    }

    /// `--timeout SECONDS`, or `--json` for a flag.
    static func label(_ option: OptionSpec) -> String {
        option.valueName.map { "--\(option.name) \($0)" } ?? "--\(option.name)"
    }

    /// The option's help with its default and whether it repeats, as help and manual pages show it.
    static func describe(_ option: OptionSpec) -> String {
        var help = option.help
        if let defaultValue = option.defaultValue { help += " (default: \(defaultValue))" }
        if option.isRepeatable { help += " (repeatable)" }
        return help
    }

    private static func table(_ rows: [(String, String)]) -> [String] {
        let width = min(28, rows.map(\.0.count).max() ?? 0)
        return rows.map { label, help in
            let padding = String(repeating: " ", count: max(2, width - label.count + 2))
            return "  \(label)\(padding)\(help)"
        }
    }
}
