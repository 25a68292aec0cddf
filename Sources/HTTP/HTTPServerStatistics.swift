/// Counts a server keeps about its connections, for metrics and tests.
public struct HTTPServerStatistics: Sendable, Equatable {
    /// TCP connections currently open, upgraded ones and event streams included.
    public var openConnections: Int
    /// TCP connections accepted since start; keep-alive shows as fewer connections than requests.
    public var acceptedConnections: Int
    /// Event streams and upgraded connections currently open.
    public var eventStreams: Int
    public var upgradedConnections: Int
}
