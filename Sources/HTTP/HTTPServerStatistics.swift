/// Counts a server keeps about its connections, for metrics and tests.
public struct HTTPServerStatistics: Sendable, Equatable {
    /// TCP connections currently open, upgraded ones and event streams included.
    public var openConnections: Int
    /// TCP connections accepted since start; keep-alive shows as fewer connections than requests.
    public var acceptedConnections: Int
    /// Event streams and upgraded connections currently open.
    public var eventStreams: Int
    public var upgradedConnections: Int
    /// Connections closed because their request was not complete by its deadline (or, on keep-alive,
    /// their next request line did not come within the idle timeout).
    public var closedPastDeadline: Int
    /// Connections closed because their client left while the server waited for its request.
    public var closedPeerGone: Int
}
