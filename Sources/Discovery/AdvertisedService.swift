/// One service to advertise over mDNS: what a receiver tells senders about itself.
public struct AdvertisedService: Sendable {
    /// The service type AirPlay video senders browse for.
    public static let airPlayType = "_airplay._tcp"

    /// The instance name senders show; on a collision avahi publishes an alternative ("Name #2").
    public var name: String
    public var type: String
    public var port: UInt16
    /// TXT entries in the order they go on the wire (`ReceiverIdentity.txtRecord`'s shape).
    public var txtRecord: [(key: String, value: String)]

    public init(name: String, type: String = AdvertisedService.airPlayType, port: UInt16,
                txtRecord: [(key: String, value: String)]) {
        self.name = name
        self.type = type
        self.port = port
        self.txtRecord = txtRecord
    }

    /// Why avahi would refuse this service, checked before it is handed over so that the caller learns
    /// which field is wrong rather than avahi's generic "invalid" codes.
    var invalidReason: String? {
        if name.isEmpty { return "the service name is empty" }
        // DNS labels carry at most 63 bytes (RFC 6763 §4.1.1).
        if name.utf8.count > 63 { return "the service name \"\(name)\" is longer than 63 bytes" }
        if port == 0 { return "the port of \"\(name)\" is 0" }
        for (key, value) in txtRecord {
            if key.isEmpty || key.contains("=") {
                return "the TXT key \"\(key)\" is empty or contains \"=\""
            }
            // Each TXT string is length-prefixed by one byte (RFC 6763 §6.1).
            if key.utf8.count + 1 + value.utf8.count > 255 {
                return "the TXT entry \"\(key)\" is longer than 255 bytes"
            }
        }
        return nil
    }

    /// Whether `other` announces the same instance (name, type, port), so that a change between the two
    /// is a TXT change, which avahi can update in place without withdrawing the service.
    func isSameInstance(as other: AdvertisedService) -> Bool {
        name == other.name && type == other.type && port == other.port
    }
}
