/// A service found on the network and resolved to an address.
public struct DiscoveredService: Sendable, Equatable {
    /// The instance name (a receiver's friendly name).
    public var name: String
    public var type: String
    public var domain: String
    /// The host's mDNS name, such as `living-room.local`.
    public var hostName: String
    /// The numeric address, IPv4 preferred when the service has both.
    public var address: String
    public var port: UInt16
    public var txt: [String: String]
}
