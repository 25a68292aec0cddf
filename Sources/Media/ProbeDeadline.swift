import CFFmpeg
import Dispatch

/// The moment a probe gives up, as FFmpeg's interrupt callback sees it.
///
/// FFmpeg polls the callback inside every blocking connect and read, including those its HTTP code
/// makes on its own (redirects, reconnects), so one deadline bounds the whole probe: playlists, init
/// section and segment together. `rw_timeout` alone would restart with every read.
final class ProbeDeadline: @unchecked Sendable {
    let seconds: Double
    private let uptimeNanoseconds: UInt64

    init(seconds: Double) {
        self.seconds = seconds
        uptimeNanoseconds = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
    }

    var hasPassed: Bool {
        DispatchTime.now().uptimeNanoseconds >= uptimeNanoseconds
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

    /// FFmpeg's per-read timeout in microseconds: the whole budget, as a second guard for reads the
    /// interrupt callback cannot reach.
    var readWriteTimeoutMicroseconds: String {
        String(Int64(max(seconds, 0.001) * 1e6))
    }
}
