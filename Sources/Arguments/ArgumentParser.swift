/// The outcome of parsing: a command to run, help to print, or what the root prints about the
/// executable itself (its version, a completion script, its manual page). Both kinds of text are
/// printed as they are, with exit status 0.
public enum ParseOutcome: Sendable {
    case run(ParsedCommand)
    case help(path: [String], text: String)
    case output(String)
}

/// Parses command lines against a `CommandSpec` tree.
public enum ArgumentParser {
    /// Parses `arguments` (without the executable name).
    ///
    /// `-h`/`--help` anywhere yields the help of the deepest command named so far. A command with
    /// subcommands that is given none yields its help too, since it cannot run on its own. The root's
    /// own requests (`--version`, the generators) are read before any command (see `RootRequest`).
    public static func parse(_ arguments: [String], root: CommandSpec) throws(UsageError) -> ParseOutcome {
        if let text = try RootRequest.text(for: arguments[...], root: root) {
            return .output(text)
        }
        var spec = root
        var path: [String] = []
        var remaining = arguments[...]

        while let next = remaining.first, !spec.subcommands.isEmpty, !next.hasPrefix("-") {
            guard let sub = spec.subcommand(named: next) else {
                let known = spec.subcommands.map(\.name).joined(separator: ", ")
                throw UsageError(commandPath: path, message: "unknown command '\(next)'; expected one of: \(known)")
            }
            path.append(next)
            spec = sub
            remaining = remaining.dropFirst()
        }

        if remaining.contains(where: { $0 == "-h" || $0 == "--help" }) || (!spec.subcommands.isEmpty && remaining.isEmpty) {
            return .help(path: path, text: HelpFormatter.help(for: spec, path: [root.name] + path))
        }
        if !spec.subcommands.isEmpty, let next = remaining.first {
            throw UsageError(commandPath: path, message: "unknown option '\(next)'; type a command first")
        }

        var options: [String: [String]] = [:]
        var positionals: [String] = []
        var onlyPositionals = false
        while let argument = remaining.popFirst() {
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                if !onlyPositionals, argument.hasPrefix("-"), argument != "-" {
                    throw UsageError(commandPath: path, message: "unknown option '\(argument)'")
                }
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = spec.option(named: name) else {
                throw UsageError(commandPath: path, message: "unknown option '--\(name)'")
            }
            if option.isFlag {
                if inlineValue != nil {
                    throw UsageError(commandPath: path, message: "--\(name) takes no value")
                }
                options[name, default: []].append("")
                continue
            }
            guard let value = inlineValue ?? remaining.popFirst() else {
                throw UsageError(commandPath: path, message: "--\(name) needs a value (\(option.valueName ?? "VALUE"))")
            }
            if options[name] != nil, !option.isRepeatable {
                throw UsageError(commandPath: path, message: "--\(name) given more than once")
            }
            options[name, default: []].append(value)
        }

        var positionalValues: [String: String] = [:]
        for (index, positional) in spec.positionals.enumerated() {
            if index < positionals.count {
                positionalValues[positional.name] = positionals[index]
            } else if !positional.isOptional {
                throw UsageError(commandPath: path, message: "missing \(positional.name)")
            }
        }
        if positionals.count > spec.positionals.count {
            let extra = positionals[spec.positionals.count]
            throw UsageError(commandPath: path, message: "unexpected argument '\(extra)'")
        }

        return .run(ParsedCommand(path: path, spec: spec, positionalValues: positionalValues, optionValues: options))
    }
}
