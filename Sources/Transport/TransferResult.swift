import Foundation

/// What one transfer did: its response, its bytes and where its time went.
///
/// Instants are on `ContinuousClock`, the clock the test origin logs with, so one process can set a
/// client's view beside the origin's.
public struct TransferResult: Sendable {
    public var url: String
    /// Where the body finally came from, after the redirects followed.
    public var finalURL: String
    public var redirects: Int
    /// The final response's status; nil when none arrived.
    public var status: Int?
    /// The final response's header fields in order (at most 100, 16 KiB).
    public var headers: [HeaderField]
    /// Set when the transfer did not complete; the other fields hold what happened until then.
    public var error: TransferError?
    /// Body bytes received (and taken by the pacing bucket).
    public var bytes: Int
    /// Only when the request asked for it, within its limit.
    public var body: Data?
    /// When the transfer was handed to libcurl.
    public var sent: ContinuousClock.Instant
    /// The response's first byte (its status line).
    public var firstByte: ContinuousClock.Instant?
    /// The last body byte taken; nil without a body.
    public var lastByte: ContinuousClock.Instant?
    public var finished: ContinuousClock.Instant
    /// Seconds from the start to the TCP connection, 0 when an open one was reused.
    public var connectSeconds: Double
    public var connectionReused: Bool
    /// After the first byte: waiting for data the bucket had room for (the origin or network was slower).
    public var originLimitedSeconds: Double
    /// After the first byte: paused because the bucket was empty (the client's own pace).
    public var receiverLimitedSeconds: Double

    public struct HeaderField: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    /// The first value of a header field, its name compared without case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public var timeToFirstByte: Duration? { firstByte.map { sent.duration(to: $0) } }

    /// Body bytes per second between the first byte and the last one.
    public var throughputBytesPerSecond: Double? {
        guard let firstByte, let lastByte, bytes > 0 else { return nil }
        let seconds = PacingClock.seconds(firstByte.duration(to: lastByte))
        return seconds > 0 ? Double(bytes) / seconds : nil
    }
}

/// Seconds on `ContinuousClock`, for the pure parts that count in `Double`.
enum PacingClock {
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
