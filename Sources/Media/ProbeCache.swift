import MediaValues

/// Probes each input once per process and shares the answer.
///
/// Requests are keyed by `ProbeRequest`: the input as given, the variant, the audio language and
/// whether local files may be read. A request that arrives while the same probe runs waits for it
/// instead of starting another. Failures are not kept: a server that failed once may answer the
/// next time. What a probe does (fetch through the loader, pick the segment, demux) is the closure's.
///
/// It keeps at most `limit` answers, the oldest leaving first: the inputs are whatever senders cast,
/// so without a bound one sender casting ever new URLs would grow a daemon's memory without end.
public actor ProbeCache {
    /// Answers kept at most: far more than a lab's streams and their ads, a few MiB at worst.
    public static let defaultLimit = 4096

    /// One uncached probe. A `Result` rather than a typed-throws async closure, which Swift 6.3
    /// miscompiles in release builds in places like this one.
    public typealias Probe = @Sendable (ProbeRequest) async -> Result<MediaParameters, MediaError>

    private let probe: Probe
    private var entries: [ProbeRequest: Task<Result<MediaParameters, MediaError>, Never>] = [:]
    public let limit: Int
    /// The requests in the order they were stored, from `oldest` on (earlier slots are spent).
    private var order: [ProbeRequest] = []
    private var oldest = 0

    public init(limit: Int = defaultLimit, probe: @escaping Probe) {
        self.limit = max(1, limit)
        self.probe = probe
    }

    /// How many answers (or probes running) are kept now.
    public var count: Int { entries.count }

    public func parameters(for request: ProbeRequest) async throws(MediaError) -> MediaParameters {
        if let running = entries[request] {
            return try await running.value.get()
        }
        let probe = self.probe
        // The entry is stored before the first suspension, so a concurrent request always finds it.
        let task = Task { await probe(request) }
        entries[request] = task
        keepWithinLimit(adding: request)
        let result = await task.value
        if case .failure = result, entries[request] == task { entries[request] = nil }
        return try result.get()
    }

    /// Forgets the oldest entries beyond `limit`. An evicted probe still running finishes for those
    /// waiting on it; a later request for it probes again.
    private func keepWithinLimit(adding request: ProbeRequest) {
        order.append(request)
        while entries.count > limit, oldest < order.count {
            let evicted = order[oldest]
            oldest += 1
            if evicted != request { entries[evicted] = nil }
        }
        // Spent slots are dropped once they are half the queue, so the queue stays linear in the cache.
        if oldest > 1024, oldest * 2 > order.count {
            order.removeFirst(oldest)
            oldest = 0
        }
    }
}
