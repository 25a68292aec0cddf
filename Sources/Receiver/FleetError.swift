/// Where a group of receivers was described: the command line, or one entry of a fleet file.
public struct FleetLocation: Sendable, Equatable {
    /// The fleet file; nil for the command line.
    public var file: String?
    /// The group's index among `receivers` (or among the `--profile`s).
    public var index: Int

    public init(file: String?, index: Int) {
        self.file = file
        self.index = index
    }

    /// A member's JSON path in the file (`$.receivers[2].count`), or the flag that set it on the command line.
    public func path(for member: String) -> String {
        guard file != nil else { return Self.flags[member] ?? "--\(member)" }
        return "$.receivers[\(index)].\(member)"
    }

    private static let flags = ["profile": "--profile", "count": "--profile", "port": "--port", "name": "--name", "password": "--password",
                                "timeScale": "--time-scale"]
}

/// A fleet that cannot be run: the file (nil for the command line), where in it, and why.
public struct FleetError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String?
    public var path: String
    public var reason: String

    public init(location: FleetLocation?, path: String, reason: String) {
        file = location?.file
        self.path = path
        self.reason = reason
    }

    public init(file: String?, path: String, reason: String) {
        self.file = file
        self.path = path
        self.reason = reason
    }

    init(_ location: FleetLocation, member: String, reason: String) {
        self.init(file: location.file, path: location.path(for: member), reason: reason)
    }

    public var description: String { file.map { "\($0): \(path): \(reason)" } ?? "\(path): \(reason)" }
}
