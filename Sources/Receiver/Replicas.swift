import Profiles

/// `count` receivers of one profile, with what they share: a first port, a name or name prefix, a
/// password and a time scale.
public struct Replicas: Sendable {
    public var profile: ReceiverProfile
    public var count: Int
    /// nil: from where the previous group ended.
    public var firstPort: Int?
    /// The name, numbered ` #k` when several receivers have it; nil: the profile's display name.
    public var name: String?
    public var password: String?
    public var timeScale: Double
    /// Where the group was described, so that errors point there.
    public var location: FleetLocation

    public init(
        profile: ReceiverProfile, count: Int = 1, firstPort: Int? = nil, name: String? = nil, password: String? = nil, timeScale: Double = 1,
        location: FleetLocation
    ) {
        self.profile = profile
        self.count = count
        self.firstPort = firstPort
        self.name = name
        self.password = password
        self.timeScale = timeScale
        self.location = location
    }

    var baseName: String { name ?? profile.displayName }

    func check() throws(FleetError) {
        guard FleetDescription.countRange.contains(count) else {
            throw FleetError(
                location, member: "count",
                reason: "\(count) is not a receiver count from \(FleetDescription.countRange.lowerBound) to \(FleetDescription.countRange.upperBound)")
        }
        guard timeScale > 0, timeScale <= FleetDescription.maximumTimeScale else {
            throw FleetError(location, member: "timeScale", reason: "must be above 0 and at most \(Int(FleetDescription.maximumTimeScale)), not \(timeScale)")
        }
        if let name, name.isEmpty { throw FleetError(location, member: "name", reason: "must not be empty") }
        if let password, password.isEmpty { throw FleetError(location, member: "password", reason: "must not be empty") }
    }

    /// Reads `NAME*N` (N receivers of profile NAME) or `NAME` (one). `*` binds to the last one, so
    /// a profile file's path may hold any character but a trailing `*digits`.
    public static func countedProfile(_ text: String) -> (profile: String, count: Int)? {
        guard let star = text.lastIndex(of: "*") else { return (text, 1) }
        let digits = text[text.index(after: star)...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(digits) else { return nil }
        return (String(text[..<star]), count)
    }
}
