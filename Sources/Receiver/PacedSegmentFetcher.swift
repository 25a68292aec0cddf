import Foundation
import Loading
import Playback
import Sessions
import Transport

/// `--media realtime`: a receiver's segments fetched from the real origin as it plays, paced to its
/// profile's bandwidth by its own token bucket (the origin sees the pace), on the process's one
/// transfer loop.
///
/// A fetch is a measured read of `Loading`'s, like any other read of airlab's: the same location rule
/// (a segment named over the network is never a local file), the same redirect checks before libcurl
/// follows one, and a size cap. Its bytes are counted and dropped, never held.
///
/// The engine counts in session seconds and the transfer in real ones: the rate is the profile's
/// bandwidth times the clock's scale, a timeout the session's divided by it, and the timings come
/// back in session time.
struct PacedSegmentFetcher: SegmentFetcher {
    /// Names the receiver's bucket, and the receiver to the origin (`X-Airlab-Client`).
    let client: String
    let bytesPerSecond: Int
    let timeScale: Double

    /// The largest segment read: a few seconds of the richest video are tens of megabytes.
    static let maximumSegmentSize = 256 << 20
    /// Reads keep the loader's bound on redirects.
    static let maximumRedirects = ResourceLoader.defaultMaximumRedirects

    init(client: String, bandwidthMbps: Double, timeScale: Double) {
        self.client = client
        self.timeScale = timeScale.isFinite && timeScale > 0 ? timeScale : 1
        let rate = bandwidthMbps * 1e6 / 8 * self.timeScale
        bytesPerSecond = min(max(Int(saturating: rate), TransferRequest.rates.lowerBound), TransferRequest.rates.upperBound)
    }

    func fetch(_ fetch: SegmentFetch, sessionTime: @escaping @Sendable () -> Double) async -> FetchOutcome {
        let url = fetch.segment.uri
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), let location = try? ResourceLocation(argument: url) else {
            return .failed(.transport("realtime fetches http(s) segments only, not \(url)"), at: sessionTime())
        }
        let timeout = fetch.timeout.isFinite && fetch.timeout > 0 ? fetch.timeout / timeScale : 10
        // The loader's timeout is a second at least; the deadline holds a scaled one that is shorter.
        let loader = ResourceLoader(
            timeout: timeout, maximumRedirects: Self.maximumRedirects, deadline: .now + .milliseconds(Int(saturating: timeout * 1000)))
        let read: MeasuredRead
        do {
            read = try await loader.measure(
                location, maximumSize: Self.maximumSegmentSize, referrer: .input(allowingLocalFiles: false),
                pacing: ReadPacing(client: client, bytesPerSecond: bytesPerSecond))
        } catch {
            let end = sessionTime()
            switch error.reason {
            case .timedOut: return .failed(.timeout, at: end)
            case .httpStatus(let status): return .failed(.status(status), at: end)
            // The segment's URL is in the failure already; the reason is what to add.
            default: return .failed(.transport(error.reason.description), at: end)
            }
        }
        let end = sessionTime()
        let firstByte = read.response?.firstByteSeconds.map { $0 * timeScale } ?? 0
        return .loaded(FetchTiming(
            requestedAt: fetch.requestedAt, firstByteAt: min(end, fetch.requestedAt + firstByte), completedAt: end, bytes: read.bytes,
            source: "measured", originLimitedSeconds: read.originLimitedSeconds * timeScale))
    }
}
