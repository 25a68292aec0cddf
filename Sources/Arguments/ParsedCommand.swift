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

    /// The option's number, nil when absent: one that is not a number, or one outside `range`, is a
    /// usage error in the words every command uses.
    public func number(_ name: String, in range: NumberRange) throws(UsageError) -> Double? {
        guard let value = try value(name, as: Double.self) else { return nil }
        return try checked(value, "--\(name)", raw: optionValues[name]?.last ?? "", in: range)
    }

    /// The positional's number, nil when absent, checked as `number(_:in:)` checks an option's.
    public func number(positional name: String, in range: NumberRange? = nil) throws(UsageError) -> Double? {
        guard let raw = positional(name) else { return nil }
        guard let value = Double(argument: raw) else { throw UsageError(commandPath: path, message: "\(name) expects a number, not '\(raw)'") }
        guard let range else { return value }
        return try checked(value, name, raw: raw, in: range)
    }

    private func checked(_ value: Double, _ name: String, raw: String, in range: NumberRange) throws(UsageError) -> Double {
        guard range.contains(value) else { throw UsageError(commandPath: path, message: "\(name) must be \(range.phrase), not '\(raw)'") }
        return value
    }

    /// The option's whole number, nil when absent; one outside `range` is a usage error.
    public func wholeNumber(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        assertDeclared(option: name)
        guard let raw = optionValues[name]?.last else { return nil }
        guard let value = Int(raw), range.contains(value) else {
            let upper = range.upperBound == .max ? "" : " to \(range.upperBound)"
            throw UsageError(commandPath: path, message: "--\(name) must be a whole number from \(range.lowerBound)\(upper), not '\(raw)'")
        }
        return value
    }

    /// The option's choice among `Choice`'s cases (by their raw values), nil when absent; another word
    /// is a usage error listing the cases.
    public func choice<Choice: CaseIterable & RawRepresentable>(_ name: String, as type: Choice.Type = Choice.self) throws(UsageError) -> Choice?
    where Choice.RawValue == String {
        assertDeclared(option: name)
        guard let raw = optionValues[name]?.last else { return nil }
        guard let choice = Choice(rawValue: raw) else {
            throw UsageError(commandPath: path, message: "--\(name) must be \(Self.list(Choice.allCases.map(\.rawValue))), not '\(raw)'")
        }
        return choice
    }

    /// `a, b or c`.
    static func list(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
    }

    /// A whole number from 0 (a seed, a count), `defaultValue` when absent.
    public func wholeNumber(_ name: String, default defaultValue: UInt64) throws(UsageError) -> UInt64 {
        assertDeclared(option: name)
        guard let raw = optionValues[name]?.last else { return defaultValue }
        guard let value = UInt64(raw) else {
            throw UsageError(commandPath: path, message: "--\(name) must be a whole number from 0, not '\(raw)'")
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
