import Profiles
/// The network between participants and their coordinator, as a seeded model: each message is
/// delayed by `delay` ± a uniform `jitter`, never below zero, and messages on one link arrive in the
/// order they were sent. One seed gives one set of delays.
public struct GroupLink: Sendable, Hashable, Codable {
    public var delaySeconds: Double
    public var jitterSeconds: Double

    public init(delaySeconds: Double = 0, jitterSeconds: Double = 0) {
        self.delaySeconds = delaySeconds
        self.jitterSeconds = jitterSeconds
    }

    /// No delay: commands arrive when they are sent.
    public static let instant = GroupLink()

    /// The delay of message number `index` on the link named `link`.
    func delay(_ link: String, index: Int, seed: UInt64) -> Double {
        guard jitterSeconds > 0 else { return delaySeconds }
        var generator = SeededGenerator.stream("link/\(link)/\(index)", seed: seed)
        return max(0, delaySeconds + Double.random(in: -jitterSeconds...jitterSeconds, using: &generator))
    }
}
