import Playback
import Sessions
import Transport

/// `--media realtime`: a receiver's segments fetched from the real origin as it plays, paced to its
/// profile's bandwidth by its own token bucket (the origin sees the pace), on the process's one
/// transfer loop.
///
/// The engine counts in session seconds and the transfer in real ones: the rate is the profile's
/// bandwidth times the clock's scale, a timeout the session's divided by it, and the timings come
/// back in session time.
struct PacedSegmentFetcher: SegmentFetcher {
    /// The process's one loop: one thread drives every receiver's transfers and every loader's.
    static var loop: TransferLoop { .shared }

    /// Names the receiver's bucket, and the receiver to the origin (`X-Airlab-Client`).
    let client: String
    let bytesPerSecond: Int
    let timeScale: Double

    init(client: String, bandwidthMbps: Double, timeScale: Double) {
        self.client = client
        self.timeScale = timeScale.isFinite && timeScale > 0 ? timeScale : 1
        let rate = bandwidthMbps * 1e6 / 8 * self.timeScale
        bytesPerSecond = min(max(Int(saturating: rate), TransferRequest.rates.lowerBound), TransferRequest.rates.upperBound)
    }

    func fetch(_ fetch: SegmentFetch, sessionTime: @escaping @Sendable () -> Double) async -> FetchOutcome {
        let url = fetch.segment.uri
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            return .failed(.transport("realtime fetches http(s) segments only, not \(url)"), at: sessionTime())
        }
        let timeout = fetch.timeout.isFinite && fetch.timeout > 0 ? fetch.timeout / timeScale : 10
        let request = TransferRequest(
            url: url, headers: [(name: "X-Airlab-Client", value: client)], pacing: .init(client: client, bytesPerSecond: bytesPerSecond),
            connectTimeout: .milliseconds(Int(saturating: min(timeout, 5) * 1000)), totalTimeout: .milliseconds(Int(saturating: timeout * 1000)),
            maximumRedirects: 5)
        let result = await Self.loop.fetch(request)
        let end = sessionTime()
        if let error = result.error {
            switch error {
            case .connectTimeout, .firstByteTimeout, .lowSpeed, .totalTimeout: return .failed(.timeout, at: end)
            default: return .failed(.transport(error.description), at: end)
            }
        }
        guard let status = result.status, (200..<300).contains(status) else {
            return .failed(result.status.map { .status($0) } ?? .transport("no answer"), at: end)
        }
        let firstByte = result.timeToFirstByte.map { Self.seconds($0) * timeScale } ?? 0
        return .loaded(FetchTiming(
            requestedAt: fetch.requestedAt, firstByteAt: min(end, fetch.requestedAt + firstByte), completedAt: end, bytes: result.bytes,
            source: "measured", originLimitedSeconds: result.originLimitedSeconds * timeScale))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
