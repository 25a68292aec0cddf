/// The time a session runs on, in seconds since the session's clock started.
///
/// The daemon reads a real clock (optionally sped up); `airlab simulate` and the tests use a
/// `ManualClock`, whose time moves only when told to, so a two-hour stream simulates in milliseconds
/// and no test ever sleeps.
public protocol PlaybackClock: Sendable {
    var now: Double { get }
}

/// A clock that moves only when told to.
public struct ManualClock: PlaybackClock {
    public private(set) var now: Double

    public init(now: Double = 0) {
        self.now = now
    }

    public mutating func advance(to time: Double) {
        now = max(now, time)
    }

    public mutating func advance(by seconds: Double) {
        now += max(0, seconds)
    }
}
