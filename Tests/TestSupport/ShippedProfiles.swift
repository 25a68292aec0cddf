import Foundation

/// The profiles airlab ships, as files in the source tree, for tests that run the commands without
/// linking the catalog.
public enum ShippedProfiles {
    /// `Sources/Profiles/Shipped` (`profiles` at the root is a link to it).
    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Profiles/Shipped")

    /// The version a shipped profile's file gives. Tests read it rather than write it down, since it
    /// rises whenever one of the profile's numbers changes.
    public static func version(_ name: String) throws -> String {
        let file = directory.appendingPathComponent("\(name).json")
        guard let document = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any],
            let version = document["version"] as? String
        else { throw ShippedProfileError(file: file.path) }
        return version
    }
}

public struct ShippedProfileError: Error, CustomStringConvertible {
    public let file: String
    public var description: String { "\(file) has no version" }
}
