/// How many connections each of a process's servers may hold, given how many descriptors the process
/// may open.
///
/// Every connection is a descriptor. When clients could fill them all, the process could no longer
/// open a playlist, fetch an asset or write a report, and libmicrohttpd would stop accepting on every
/// server at once; so a part of the limit is kept back for that work, and the rest is shared evenly.
public struct DescriptorBudget: Sendable, Equatable {
    /// The process's soft limit on open descriptors.
    public var descriptorLimit: Int
    /// Descriptors kept for everything but connections: files, outgoing fetches, mDNS, logs.
    public static let reserved = 256
    /// Per server: its listening socket and libmicrohttpd's epoll and wake-up descriptors, with room to spare.
    public static let perServer = 8

    public init(descriptorLimit: Int) {
        self.descriptorLimit = descriptorLimit
    }

    /// `requested` connections for each of `servers` servers, lowered to what the limit leaves them, but
    /// never below 1 (a server that can take no connection at all would be useless and confusing).
    ///
    /// - Parameter others: the connection limits of the process's other servers (the fleet's metrics
    ///   endpoint), which are taken from the limit first, with their servers' own descriptors.
    public func connectionLimit(requested: Int, servers: Int, others: [Int] = []) -> Int {
        let servers = max(1, servers)
        let taken = others.reduce(0) { $0 + max(0, $1) + Self.perServer }
        let available = descriptorLimit - Self.reserved - taken - servers * Self.perServer
        return max(1, min(requested, available / servers))
    }
}
