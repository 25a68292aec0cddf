/// Where a `ServicePublisher` stands as a whole.
public enum PublisherState: Sendable, Equatable {
    /// `start()` has not been called, or `stop()` has withdrawn everything.
    case stopped
    /// No avahi-daemon on the bus yet (absent at start, or stopped since): services are kept and
    /// published as soon as one appears.
    case waitingForAvahi
    /// Connected to avahi; at least one service is still being announced (probing takes about a second).
    case registering
    /// Connected to avahi, and no service is pending: each is established or has failed on its own
    /// (see `ServicePublisher.services`).
    case published
    /// mDNS cannot work in this process, typically because the system D-Bus is missing.
    case failed(DiscoveryError)
}

/// Identifies one service given to a `ServicePublisher`.
public struct ServiceID: Hashable, Sendable, CustomStringConvertible {
    let rawValue: Int
    public var description: String { "service-\(rawValue)" }
}

/// What became of one advertised service.
public struct PublishedService: Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        /// Waiting for avahi, or being announced.
        case pending
        /// On the network under `publishedName`.
        case established
        /// avahi refused it; the other services are unaffected.
        case failed(DiscoveryError)
    }

    public var id: ServiceID
    /// The name the caller asked for.
    public var requestedName: String
    /// The name on the network: the requested one, or avahi's alternative after a collision.
    /// Absent until avahi has accepted a name.
    public var publishedName: String?
    public var status: Status
}
