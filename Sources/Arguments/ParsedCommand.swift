/// A typed value that can be read from one command-line argument.
public protocol ArgumentValue {
    init?(argument: String)
}

extension String: ArgumentValue {
    public init?(argument: String) { self = argument }
}

extension Int: ArgumentValue {
    public init?(argument: String) { self.init(argument) }
}

extension Double: ArgumentValue {
    public init?(argument: String) {
        guard let value = Double(argument), value.isFinite else { return nil }
        self = value
    }
}

/// What the parser found on a command line, checked against its `CommandSpec`.
public struct ParsedCommand: Sendable {
    /// The command chain, without the executable: `["playlist", "inspect"]`.
    public var path: [String]
    public var spec: CommandSpec
    var positionalValues: [String: String]
    var optionValues: [String: [String]]

    public func flag(_ name: String) -> Bool {
        assertDeclared(option: name)
        return optionValues[name] != nil
    }

    public func positional(_ name: String) -> String? {
        assert(spec.positionals.contains { $0.name == name }, "\(path.joined(separator: " ")) reads a positional it does not declare: \(name)")
        return positionalValues[name]
    }

    public func values(_ name: String) -> [String] {
        assertDeclared(option: name)
        return optionValues[name] ?? []
    }

    /// Debug builds stop at an option name the command does not declare: a misspelt name in the code
    /// would otherwise read as an option never given.
    private func assertDeclared(option name: String) {
        assert(spec.option(named: name) != nil, "\(path.joined(separator: " ")) reads an option it does not declare: --\(name)")
    }

    /// The option's value converted to `T`, nil when absent; a value that does not convert is a usage error.
    public func value<T: ArgumentValue>(_ name: String, as type: T.Type = T.self) throws(UsageError) -> T? {
        assertDeclared(option: name)
        guard let raw = optionValues[name]?.last else { return nil }
        guard let value = T(argument: raw) else {
            throw UsageError(
                commandPath: path, message: "--\(name) expects \(spec.option(named: name)?.valueName ?? "a value"), not '\(raw)'")
        }
        return value
    }

    /// A whole number from 0 (a seed, a count), `defaultValue` when absent.
    public func wholeNumber(_ name: String, default defaultValue: UInt64) throws(UsageError) -> UInt64 {
        assertDeclared(option: name)
        guard let raw = optionValues[name]?.last else { return defaultValue }
        guard let value = UInt64(raw) else {
            throw UsageError(commandPath: path, message: "--\(name) expects a whole number from 0, not '\(raw)'")
        }
        return value
    }
}

/// A command line that does not fit its command's description. Executables print it and exit 2.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public var commandPath: [String]
    public var message: String

    public init(commandPath: [String], message: String) {
        self.commandPath = commandPath
        self.message = message
    }

    public var description: String { message }
}
