import Emulation

/// A session's clock in the daemon: real time since the cast, sped up by `--time-scale` so that a
/// lab can play an hour of content in minutes.
struct ScaledClock: PlaybackClock {
    let origin: ContinuousClock.Instant
    let scale: Double

    init(scale: Double, origin: ContinuousClock.Instant = .now) {
        self.scale = scale
        self.origin = origin
    }

    var now: Double {
        let elapsed = ContinuousClock.now - origin
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18) * scale
    }

    /// The real time to wait until the session clock reads `time`.
    func delay(until time: Double) -> Duration {
        .nanoseconds(Int64(max(0, min((time - now) / scale, 86_400)) * 1e9))
    }
}
