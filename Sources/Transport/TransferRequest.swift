import Foundation

/// One HTTP request for the transfer loop, with its pacing and its timeouts.
public struct TransferRequest: Sendable, Equatable {
    /// HTTP's methods, and the RTSP ones an AirPlay 2 sender sends on its paired connection, where a
    /// relay turns a request with a `CSeq` into RTSP/1.0 (libcurl writes them as HTTP/1.1).
    public enum Method: String, Sendable {
        case get = "GET", head = "HEAD", post = "POST", put = "PUT", delete = "DELETE"
        case setup = "SETUP", record = "RECORD", teardown = "TEARDOWN"
    }

    /// A user and password that libcurl answers an HTTP Digest challenge with (a 401 costs one more
    /// round trip: the request goes again with the answer, on the same connection when it stayed open).
    public struct DigestLogin: Sendable, Equatable {
        public var username: String
        public var password: String

        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    /// Paces a client's transfers together: every transfer with the same `client` draws from one bucket.
    public struct Pacing: Sendable, Equatable {
        public var client: String
        public var bytesPerSecond: Int

        public init(client: String, bytesPerSecond: Int) {
            self.client = client
            self.bytesPerSecond = bytesPerSecond
        }
    }

    /// libcurl's "no progress" rule: below `bytesPerSecond` for `seconds` ends the transfer.
    public struct LowSpeed: Sendable, Equatable {
        public var bytesPerSecond: Int
        public var seconds: Int

        public init(bytesPerSecond: Int, seconds: Int) {
            self.bytesPerSecond = bytesPerSecond
            self.seconds = seconds
        }
    }

    public var url: String
    public var method: Method
    public var headers: [(name: String, value: String)]
    /// Bytes `lowerBound...upperBound` of the resource.
    public var range: ClosedRange<Int>?
    public var pacing: Pacing?
    public var connectTimeout: Duration
    /// From the request's start to the response's first byte.
    public var firstByteTimeout: Duration?
    public var lowSpeed: LowSpeed?
    /// The whole transfer.
    public var totalTimeout: Duration?
    /// Keep at most this many body bytes in the result; nil counts the bytes and drops them.
    public var bodyLimit: Int?
    /// How many redirects to follow; 0 returns the 3xx itself.
    public var maximumRedirects: Int
    /// Sent with a POST (with `Content-Length`, an empty one too) or a DELETE; nil sends none.
    public var body: Data?
    public var digest: DigestLogin?
    /// False closes the connection after the response instead of keeping it for a later transfer.
    public var reusesConnection = true
    /// Runs on this pool's connections only, not on the loop's common ones.
    public var pool: ConnectionPool?

    /// Bounds of the numbers a request may carry, checked before libcurl sees them.
    public static let rates = 1...10_000_000_000
    public static let lowSpeedSeconds = 1...3_600
    public static let bodyLimits = 0...(1 << 31)
    public static let redirects = 0...20
    public static let bodySizes = 0...(64 << 20)

    public init(
        url: String, method: Method = .get, headers: [(name: String, value: String)] = [], range: ClosedRange<Int>? = nil,
        pacing: Pacing? = nil, connectTimeout: Duration = .seconds(5), firstByteTimeout: Duration? = nil, lowSpeed: LowSpeed? = nil,
        totalTimeout: Duration? = nil, bodyLimit: Int? = nil, maximumRedirects: Int = 0
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.range = range
        self.pacing = pacing
        self.connectTimeout = connectTimeout
        self.firstByteTimeout = firstByteTimeout
        self.lowSpeed = lowSpeed
        self.totalTimeout = totalTimeout
        self.bodyLimit = bodyLimit
        self.maximumRedirects = maximumRedirects
    }

    public static func == (lhs: TransferRequest, rhs: TransferRequest) -> Bool {
        lhs.url == rhs.url && lhs.method == rhs.method && lhs.headers.map { [$0.name, $0.value] } == rhs.headers.map { [$0.name, $0.value] }
            && lhs.range == rhs.range && lhs.pacing == rhs.pacing && lhs.connectTimeout == rhs.connectTimeout
            && lhs.firstByteTimeout == rhs.firstByteTimeout && lhs.lowSpeed == rhs.lowSpeed && lhs.totalTimeout == rhs.totalTimeout
            && lhs.bodyLimit == rhs.bodyLimit && lhs.maximumRedirects == rhs.maximumRedirects && lhs.body == rhs.body && lhs.digest == rhs.digest
            && lhs.reusesConnection == rhs.reusesConnection && lhs.pool === rhs.pool
    }

    /// Why the request cannot be sent, naming the field; nil when it can.
    public var refusal: String? {
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), !url.utf8.contains(0), !url.contains(where: \.isNewline) else {
            return "url '\(url)' is not an http(s) URL"
        }
        if let range, range.lowerBound < 0 { return "range \(range) starts before byte 0" }
        if let pacing, !Self.rates.contains(pacing.bytesPerSecond) {
            return "pacing.bytesPerSecond \(pacing.bytesPerSecond) is not from \(Self.rates.lowerBound) to \(Self.rates.upperBound)"
        }
        if let lowSpeed {
            if !Self.rates.contains(lowSpeed.bytesPerSecond) { return "lowSpeed.bytesPerSecond \(lowSpeed.bytesPerSecond) is out of range" }
            if !Self.lowSpeedSeconds.contains(lowSpeed.seconds) { return "lowSpeed.seconds \(lowSpeed.seconds) is not from 1 to 3600" }
        }
        for (name, duration) in [("connectTimeout", connectTimeout), ("firstByteTimeout", firstByteTimeout), ("totalTimeout", totalTimeout)] {
            if let duration, duration <= .zero || duration > .seconds(86_400) { return "\(name) \(duration) is not above 0 and at most a day" }
        }
        if let bodyLimit, !Self.bodyLimits.contains(bodyLimit) { return "bodyLimit \(bodyLimit) is not from 0 to 2^31" }
        if !Self.redirects.contains(maximumRedirects) { return "maximumRedirects \(maximumRedirects) is not from 0 to 20" }
        if let body {
            if method == .get || method == .head { return "a \(method.rawValue) carries no body" }
            if !Self.bodySizes.contains(body.count) { return "body of \(body.count) bytes is over 64 MiB" }
        }
        if let digest, (digest.username + digest.password).utf8.contains(0) { return "digest credentials hold a NUL byte" }
        for header in headers where header.name.isEmpty || header.name.contains(":") || (header.name + header.value).contains(where: \.isNewline) {
            return "header '\(header.name)' is empty, holds a colon, or spans lines"
        }
        return nil
    }
}
