/// Probes each asset once per process and shares the answer.
///
/// Requests are keyed by the input as given and the variant asked for. A request that arrives while
/// the same probe runs waits for it instead of starting another. Failures are not kept: a server that
/// failed once may answer the next time.
public actor ProbeCache {
    public struct Key: Sendable, Hashable {
        public var input: String
        public var variant: Int?

        public init(input: String, variant: Int? = nil) {
            self.input = input
            self.variant = variant
        }
    }

    public typealias Probe = @Sendable (Key) throws(MediaError) -> MediaParameters

    private let probe: Probe
    private var entries: [Key: Task<Result<MediaParameters, MediaError>, Never>] = [:]

    /// A cache over `MediaProbe.probe` with `options`.
    public init(options: ProbeOptions = ProbeOptions()) {
        self.init { (key: Key) throws(MediaError) -> MediaParameters in
            try MediaProbe.probe(key.input, variant: key.variant, options: options)
        }
    }

    /// A cache over any blocking probe; tests count calls through this.
    public init(probe: @escaping Probe) {
        self.probe = probe
    }

    public func parameters(for input: String, variant: Int? = nil) async throws(MediaError) -> MediaParameters {
        let key = Key(input: input, variant: variant)
        if let running = entries[key] {
            return try await running.value.get()
        }
        let probe = self.probe
        // The entry is stored before the first suspension, so a concurrent request always finds it.
        let task = Task { () -> Result<MediaParameters, MediaError> in
            do throws(MediaError) {
                return .success(try await ProbeQueue.run { () throws(MediaError) -> MediaParameters in try probe(key) })
            } catch {
                return .failure(error)
            }
        }
        entries[key] = task
        let result = await task.value
        if case .failure = result, entries[key] == task { entries[key] = nil }
        return try result.get()
    }
}
