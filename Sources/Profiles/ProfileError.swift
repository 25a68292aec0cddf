import Foundation

/// A problem with a profile: which file, where in it (a JSON path such as `$.video.codecs[0].maxLevel`), and why.
public struct ProfileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var path: String
    public var reason: String

    public init(file: String, path: String, reason: String) {
        self.file = file
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(file): \(path): \(reason)" }
}
