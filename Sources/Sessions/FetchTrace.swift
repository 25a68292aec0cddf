import Playback
/// Fetches as they went once, to play again (`airlab simulate --fetch-trace`): by URL and try, how
/// long the answer took and what it was. A fetch the trace does not hold goes as the model says.
///
/// Every session that fetches segments records one as it plays (`SessionDriver`), so a session that
/// stalled against a real origin (`--media realtime`) can be played again on a virtual clock, on the
/// same profile or another, and come out the same way.
public struct FetchTrace: Sendable, Hashable, Codable {
    public struct Row: Sendable, Hashable, Codable {
        public var uri: String
        /// 1 for the first try of the segment.
        public var attempt: Int
        /// The HTTP status; 0 for a timeout or a connection that failed.
        public var status: Int
        public var bytes: Int
        public var firstByteSeconds: Double
        /// From the request to the last byte (or to the failure).
        public var seconds: Double
        /// Why a fetch with status 0 failed when it was not a timeout: the connection failed or the
        /// body was cut short. Absent for timeouts and HTTP answers.
        public var failure: String?

        public init(uri: String, attempt: Int = 1, status: Int = 200, bytes: Int, firstByteSeconds: Double, seconds: Double, failure: String? = nil) {
            self.uri = uri
            self.attempt = attempt
            self.status = status
            self.bytes = bytes
            self.firstByteSeconds = firstByteSeconds
            self.seconds = seconds
            self.failure = failure
        }

        /// The row that plays `outcome` of `fetch` again. Times are kept relative to the request, so
        /// the row replays wherever in the session the fetch falls.
        public init(recording fetch: SegmentFetch, _ outcome: FetchOutcome) {
            let start = fetch.requestedAt
            switch outcome {
            case .loaded(let timing):
                self.init(
                    uri: fetch.segment.uri, attempt: fetch.attempt, status: 200, bytes: max(0, timing.bytes),
                    firstByteSeconds: Self.span(start, timing.firstByteAt), seconds: Self.span(start, timing.completedAt))
            case .failed(let failure, let at):
                let seconds = Self.span(start, at)
                switch failure {
                case .status(let status):
                    self.init(uri: fetch.segment.uri, attempt: fetch.attempt, status: status, bytes: 0, firstByteSeconds: seconds, seconds: seconds)
                case .timeout:
                    self.init(uri: fetch.segment.uri, attempt: fetch.attempt, status: 0, bytes: 0, firstByteSeconds: 0, seconds: seconds)
                case .transport(let reason):
                    self.init(
                        uri: fetch.segment.uri, attempt: fetch.attempt, status: 0, bytes: 0, firstByteSeconds: 0, seconds: seconds,
                        failure: String(reason.prefix(Self.failureLimit)))
                }
            }
        }

        /// A reason is a line of text, not a payload.
        static let failureLimit = 512

        /// Seconds from `start` to `end`, never negative nor beyond what a trace accepts.
        private static func span(_ start: Double, _ end: Double) -> Double {
            let seconds = end - start
            return seconds.isFinite ? min(max(0, seconds), 86_400) : 0
        }
    }

    public private(set) var rows: [Row]
    /// Fetches a recording session answered after it held `recordingLimit` rows: counted, not kept.
    public private(set) var unrecorded = 0
    private var index: [Key: Int] = [:]

    /// Rows one session keeps: a 2-hour session of 6-second segments fetches about 2,500 (video,
    /// audio and ads), a day of live 2-second segments 90,000; at about 100 bytes a row, 100,000 rows
    /// bound a session's trace to some 10 MB.
    public static let recordingLimit = 100_000

    struct Key: Hashable, Codable {
        var uri: String
        var attempt: Int
    }

    enum CodingKeys: String, CodingKey {
        case rows, unrecorded
    }

    public init(rows: [Row] = []) {
        self.rows = []
        rows.forEach { append($0) }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(rows: try container.decode([Row].self, forKey: .rows))
        unrecorded = try container.decodeIfPresent(Int.self, forKey: .unrecorded) ?? 0
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rows, forKey: .rows)
        if unrecorded > 0 { try container.encode(unrecorded, forKey: .unrecorded) }
    }

    /// Adds a fetch a session answered, up to `recordingLimit` rows; beyond it only counts it.
    mutating func record(_ row: Row) {
        guard rows.count < Self.recordingLimit else {
            unrecorded += 1
            return
        }
        append(row)
    }

    /// Adds a row; the first row of a URL and try is the one replayed.
    public mutating func append(_ row: Row) {
        let key = Key(uri: row.uri, attempt: row.attempt)
        if index[key] == nil { index[key] = rows.count }
        rows.append(row)
    }

    /// How the fetch went when it was recorded; nil when the trace does not hold it.
    public func outcome(of fetch: SegmentFetch) -> FetchOutcome? {
        guard let position = index[Key(uri: fetch.segment.uri, attempt: fetch.attempt)] else { return nil }
        let row = rows[position]
        let start = fetch.requestedAt
        let seconds = row.seconds.isFinite ? max(0, row.seconds) : 0
        let firstByte = row.firstByteSeconds.isFinite ? min(max(0, row.firstByteSeconds), seconds) : 0
        if fetch.timeout.isFinite, fetch.timeout > 0, seconds > fetch.timeout { return .failed(.timeout, at: start + fetch.timeout) }
        switch row.status {
        case 200..<300:
            return .loaded(FetchTiming(
                requestedAt: start, firstByteAt: start + firstByte, completedAt: start + seconds, bytes: max(0, row.bytes), source: "replayed"))
        case 0:
            return .failed(row.failure.map { .transport($0) } ?? .timeout, at: start + seconds)
        default:
            return .failed(.status(row.status), at: start + seconds)
        }
    }
}
