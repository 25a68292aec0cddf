import HLS

/// One rule of a fault plan: which requests it matches and what it does to them.
public struct FaultRule: Sendable, Equatable {
    /// The rule's `name`, or `rules[i]` when it has none; the request log names it.
    public var name: String
    /// Matched against the request path (`/ads/*.ts`); `*` spans slashes.
    public var path: GlobPattern
    /// Which requests for a path it applies to, counted from 1 per path and client id: `1...2` for the
    /// first two. Nil: all of them.
    public var requests: ClosedRange<Int>?
    /// Matched against the client id header; nil matches every request, with the header or without.
    public var client: GlobPattern?
    /// When it applies: requests arriving from `lowerBound` up to (not at) `upperBound` seconds after
    /// the origin started (a CDN's outage from minute 2 to minute 3). Nil: whenever they arrive.
    public var during: Range<Double>?
    public var action: FaultAction

    public init(
        name: String, path: GlobPattern, requests: ClosedRange<Int>? = nil, client: GlobPattern? = nil, during: Range<Double>? = nil,
        action: FaultAction
    ) {
        self.name = name
        self.path = path
        self.requests = requests
        self.client = client
        self.during = during
        self.action = action
    }

    /// Whether this rule applies to the `ordinal`-th request (from 1) for `path` from `client`,
    /// arriving `elapsed` seconds after the origin started.
    public func matches(path: String, client: String?, ordinal: Int, elapsed: Double) -> Bool {
        guard self.path.matches(path) else { return false }
        if let requests, !requests.contains(ordinal) { return false }
        if let during, !during.contains(elapsed) { return false }
        if let pattern = self.client {
            guard let client, pattern.matches(client) else { return false }
        }
        return true
    }
}

/// What a rule does to the requests it matches.
public struct FaultAction: Sendable, Equatable {
    /// Answer with this status and a one-line body instead of the file.
    public struct StatusReply: Sendable, Equatable {
        public var status: Int
        public var retryAfterSeconds: Int?

        public init(status: Int, retryAfterSeconds: Int? = nil) {
            self.status = status
            self.retryAfterSeconds = retryAfterSeconds
        }
    }

    /// Holds the response this long before its headers; combines with every other action.
    public var timeToFirstByte: Duration?
    /// Exclusive with `body`.
    public var reply: StatusReply?
    /// 302 to this path; exclusive with `reply` and `body`.
    public var redirect: String?
    /// How the file's bytes are sent when the rule serves the file.
    public var body: BodyFaults

    public init(timeToFirstByte: Duration? = nil, reply: StatusReply? = nil, redirect: String? = nil, body: BodyFaults = BodyFaults()) {
        self.timeToFirstByte = timeToFirstByte
        self.reply = reply
        self.redirect = redirect
        self.body = body
    }
}

/// The faults in how a served body travels; every one is optional and they combine.
public struct BodyFaults: Sendable, Equatable {
    /// Server-side pacing: at most this many bytes each second, on average from the first byte.
    public var paceBytesPerSecond: Int?
    /// After this many body bytes, send nothing for `stallDuration`, then go on.
    public var stall: Stall?
    /// After this many body bytes, close the connection (the headers promised more).
    public var truncateAfterBytes: Int?
    /// After this many body bytes, reset the connection (TCP RST).
    public var resetAfterBytes: Int?
    /// Added to the true length in `Content-Length`: positive promises bytes that never come (the
    /// connection closes after the real ones), negative cuts the body at the shorter length.
    public var contentLengthError: Int?

    public struct Stall: Sendable, Equatable {
        public var afterBytes: Int
        public var duration: Duration

        public init(afterBytes: Int, duration: Duration) {
            self.afterBytes = afterBytes
            self.duration = duration
        }
    }

    public init(
        paceBytesPerSecond: Int? = nil, stall: Stall? = nil, truncateAfterBytes: Int? = nil, resetAfterBytes: Int? = nil, contentLengthError: Int? = nil
    ) {
        self.paceBytesPerSecond = paceBytesPerSecond
        self.stall = stall
        self.truncateAfterBytes = truncateAfterBytes
        self.resetAfterBytes = resetAfterBytes
        self.contentLengthError = contentLengthError
    }

    public var isEmpty: Bool { self == BodyFaults() }
}
