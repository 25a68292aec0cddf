/// A receiver a sender can cast to, with what it is known to be.
public struct Receiver: Sendable, Hashable {
    /// The friendly name (the mDNS instance name, or what `airlabd` printed); nil when only an address was given.
    public var name: String?
    public var address: ReceiverAddress
    /// The airlab profile it emulates (TXT `airlab.profile`), nil for a receiver that is not airlab's.
    public var profile: String?
    public var model: String?
    public var deviceID: String?

    public init(name: String? = nil, address: ReceiverAddress, profile: String? = nil, model: String? = nil, deviceID: String? = nil) {
        self.name = name
        self.address = address
        self.profile = profile
        self.model = model
        self.deviceID = deviceID
    }

    /// How messages name it: `receiver "Living Room" (10.0.0.5:7000)`, or `receiver 10.0.0.5:7000`.
    public var label: String {
        name.map { "receiver \"\($0)\" (\(address))" } ?? "receiver \(address)"
    }
}
