import CFFmpeg

/// The moment a probe gives up, as FFmpeg's interrupt callback sees it.
///
/// The probe's fetches are bounded by the loader against the same instant; this bounds what FFmpeg
/// does with the bytes (opening, reading stream info), so one deadline covers the whole probe.
final class ProbeDeadline: @unchecked Sendable {
    /// The probe's whole budget, as a timeout names it.
    let seconds: Double
    private let instant: ContinuousClock.Instant

    init(until instant: ContinuousClock.Instant, seconds: Double) {
        self.instant = instant
        self.seconds = seconds
    }

    var hasPassed: Bool {
        ContinuousClock.now >= instant
    }

    /// The callback to hand FFmpeg. It holds `self` unretained: callers keep the deadline alive for
    /// as long as FFmpeg may call it (`withExtendedLifetime`).
    var interruptCallback: AVIOInterruptCB {
        AVIOInterruptCB(
            callback: { opaque in
                guard let opaque else { return 0 }
                return Unmanaged<ProbeDeadline>.fromOpaque(opaque).takeUnretainedValue().hasPassed ? 1 : 0
            },
            opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}
