import Foundation

/// Reads every byte airlab reads (playlists, asset lists, media segments, init sections) from local
/// files and http(s) URLs, within limits and under the one location rule (`ResourceReferrer`).
///
/// Every read has a size cap, a timeout and a bounded number of redirects, because the resources
/// come from streams under test: a misconfigured origin must produce a clear error, not a hang or
/// an out-of-memory kill. There is no second way in: Media demuxes bytes it is handed and never
/// opens a URL itself.
public struct ResourceLoader: Sendable {
    public static let defaultTimeout = 10.0
    public static let defaultMaximumRedirects = 5
    /// Asset lists are a few hundred bytes of JSON; a megabyte is already absurd.
    public static let assetListMaximumSize = 1 << 20

    /// Seconds for a whole transfer, at least 1 (a caller's `deadline` can still end one sooner).
    public var timeout: Double
    public var maximumRedirects: Int
    /// No transfer runs past this instant: one budget across several reads, such as a probe's
    /// playlists, init section and segment together. Nil leaves each read its `timeout`.
    public var deadline: ContinuousClock.Instant?
    /// The bytes all reads in progress may hold at once, shared by every copy of this loader (and by
    /// default by every loader of the process): each read's cap bounds one read, this bounds them together.
    public var memoryBudget: LoadMemoryBudget

    public init(
        timeout: Double = defaultTimeout, maximumRedirects: Int = defaultMaximumRedirects, deadline: ContinuousClock.Instant? = nil,
        memoryBudget: LoadMemoryBudget = .shared
    ) {
        self.timeout = timeout.isFinite ? max(1, timeout) : Self.defaultTimeout
        self.maximumRedirects = max(0, maximumRedirects)
        self.deadline = deadline
        self.memoryBudget = memoryBudget
    }

    /// Reads a resource, or the range of it asked for.
    ///
    /// - Parameters:
    ///   - maximumSize: bodies and files larger than this many bytes are refused without being kept,
    ///     or with `.keepFirst` cut to their first `maximumSize` bytes. A body streams in and is never
    ///     held past this; what it holds also counts against `memoryBudget` until it is returned.
    ///   - referrer: who named the resource, which decides whether it may be a local file.
    ///   - range: part of the resource; a range past the end gives the bytes that exist.
    public func load(
        _ location: ResourceLocation, maximumSize: Int, referrer: ResourceReferrer, range: ResourceRange? = nil,
        overflow: Overflow = .refuse
    ) async throws(LoadingError) -> LoadedResource {
        // The rule is applied before anything is opened, so the answer never says whether a file exists.
        if let refusal = referrer.refusal(of: location) {
            throw LoadingError(location: location.description, reason: refusal)
        }
        if let range, range.length > maximumSize, overflow == .refuse {
            throw LoadingError(location: location.description, reason: .tooLarge(limit: maximumSize, size: range.length))
        }
        let transferred: Transferred
        if location.isLocal {
            transferred = try LocalFile.read(location, maximumSize: maximumSize, range: range, overflow: overflow, budget: memoryBudget)
        } else if range?.length == 0 {
            transferred = Transferred(data: Data(), finalURL: location.url, isTruncated: false)
        } else {
            let allowance = try allowance(for: location)
            transferred = try await HTTPTransfer.get(HTTPTransfer.Request(
                url: location.url, maximumSize: maximumSize, range: range, overflow: overflow,
                maximumRedirects: maximumRedirects, timeout: timeout, allowance: allowance, budget: memoryBudget))
        }
        let finalLocation = (try? ResourceLocation(url: transferred.finalURL)) ?? location
        return LoadedResource(
            location: location, finalLocation: finalLocation, data: transferred.data, isTruncated: transferred.isTruncated,
            response: transferred.response)
    }

    /// Reads an http(s) resource only to measure it: its body is counted against `maximumSize` and
    /// dropped, optionally paced by the reader's own token bucket (the origin sees the pace). The
    /// same location rule, timeouts and redirect checks as `load`; a local file is refused, since
    /// there is no network to measure.
    public func measure(_ location: ResourceLocation, maximumSize: Int, referrer: ResourceReferrer, pacing: ReadPacing? = nil) async throws(LoadingError)
        -> MeasuredRead
    {
        if let refusal = referrer.refusal(of: location) {
            throw LoadingError(location: location.description, reason: refusal)
        }
        guard !location.isLocal else { throw LoadingError(location: location.description, reason: .unsupportedScheme("file")) }
        let transferred = try await HTTPTransfer.get(HTTPTransfer.Request(
            url: location.url, maximumSize: maximumSize, range: nil, overflow: .refuse, maximumRedirects: maximumRedirects, timeout: timeout,
            allowance: try allowance(for: location), budget: memoryBudget, pacing: pacing, keepsBody: false))
        return MeasuredRead(
            bytes: transferred.bytes, finalLocation: (try? ResourceLocation(url: transferred.finalURL)) ?? location, response: transferred.response,
            originLimitedSeconds: transferred.originLimitedSeconds)
    }

    /// Seconds a transfer may take: the timeout, or less when the deadline comes first.
    private func allowance(for location: ResourceLocation) throws(LoadingError) -> Double {
        guard let deadline else { return timeout }
        let left = ContinuousClock.now.duration(to: deadline)
        let allowance = min(timeout, Double(left.components.seconds) + Double(left.components.attoseconds) * 1e-18)
        guard allowance > 0 else { throw LoadingError(location: location.description, reason: .timedOut(timeout)) }
        return allowance
    }

    /// `load` for a top-level input: the one place a caller's own word can allow a local file.
    public func load(_ location: ResourceLocation, maximumSize: Int, allowingLocalFiles: Bool) async throws(LoadingError) -> LoadedResource {
        try await load(location, maximumSize: maximumSize, referrer: .input(allowingLocalFiles: allowingLocalFiles))
    }
}

/// A reader's pace for a measured read: every read of the same `client` draws from one token bucket,
/// and the origin is told who reads (`X-Airlab-Client`).
public struct ReadPacing: Sendable, Hashable {
    public var client: String
    public var bytesPerSecond: Int

    public init(client: String, bytesPerSecond: Int) {
        self.client = client
        self.bytesPerSecond = bytesPerSecond
    }
}

/// What a measured read learned; its bytes were counted and dropped.
public struct MeasuredRead: Sendable {
    public var bytes: Int
    /// The location after redirects.
    public var finalLocation: ResourceLocation
    /// The response's status and head, and its time to the first byte.
    public var response: ResponseHead?
    /// Seconds after the first byte spent waiting for data the reader's bucket had room for: the
    /// origin (or the network) was slower than the reader's pace.
    public var originLimitedSeconds: Double
}

/// The bytes of a resource and where they came from.
public struct LoadedResource: Sendable {
    /// The location asked for.
    public var location: ResourceLocation
    /// The location after redirects: relative references inside the resource resolve against it.
    public var finalLocation: ResourceLocation
    public var data: Data
    /// True when the resource went on past the cap and only its first bytes are here (`.keepFirst`).
    public var isTruncated: Bool
    /// The HTTP response's status and headers that describe the body; nil for a local file.
    public var response: ResponseHead? = nil
}
