import MediaValues

/// Probes each input once per process and shares the answer.
///
/// Requests are keyed by `ProbeRequest`: the input as given, the variant, the audio language and
/// whether local files may be read. A request that arrives while the same probe runs waits for it
/// instead of starting another. Failures are not kept: a server that failed once may answer the
/// next time. What a probe does (fetch through the loader, pick the segment, demux) is the closure's.
public actor ProbeCache {
    /// One uncached probe. A `Result` rather than a typed-throws async closure, which Swift 6.3
    /// miscompiles in release builds in places like this one.
    public typealias Probe = @Sendable (ProbeRequest) async -> Result<MediaParameters, MediaError>

    private let probe: Probe
    private var entries: [ProbeRequest: Task<Result<MediaParameters, MediaError>, Never>] = [:]

    public init(probe: @escaping Probe) {
        self.probe = probe
    }

    public func parameters(for request: ProbeRequest) async throws(MediaError) -> MediaParameters {
        if let running = entries[request] {
            return try await running.value.get()
        }
        let probe = self.probe
        // The entry is stored before the first suspension, so a concurrent request always finds it.
        let task = Task { await probe(request) }
        entries[request] = task
        let result = await task.value
        if case .failure = result, entries[request] == task { entries[request] = nil }
        return try result.get()
    }
}
