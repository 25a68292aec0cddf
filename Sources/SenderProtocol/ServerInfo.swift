import Foundation

/// `GET /server-info`'s property list: who a receiver says it is. The receiver writes it from its
/// `ReceiverIdentity`; a sender reads any receiver's, airlab's or not, so every member is optional and
/// one of an unexpected type is left out.
public struct ServerInfo: Sendable, Equatable, Codable {
    public var deviceID: String?
    public var features: UInt64?
    public var model: String?
    public var name: String?
    public var protocolVersion: String?
    public var sourceVersion: String?
    public var vv: Int?
    /// airlab's receivers only: the profile they emulate.
    public var profile: String?
    /// airlab's receivers only: session seconds per real second (`--time-scale`), so a console of
    /// receivers on other hosts moves their clocks at their pace between events.
    public var timeScale: Double?

    public init(
        deviceID: String? = nil, features: UInt64? = nil, model: String? = nil, name: String? = nil, protocolVersion: String? = nil,
        sourceVersion: String? = nil, vv: Int? = nil, profile: String? = nil
    ) {
        self.deviceID = deviceID
        self.features = features
        self.model = model
        self.name = name
        self.protocolVersion = protocolVersion
        self.sourceVersion = sourceVersion
        self.vv = vv
        self.profile = profile
    }

    enum CodingKeys: String, CodingKey {
        case deviceID = "deviceid", features, model, name, protocolVersion = "protovers", sourceVersion = "srcvers", vv
        case profile = "airlab.profile", timeScale = "airlab.timeScale"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        deviceID = try? container.decodeIfPresent(String.self, forKey: .deviceID)
        features = container.featureBits(forKey: .features)
        model = try? container.decodeIfPresent(String.self, forKey: .model)
        name = try? container.decodeIfPresent(String.self, forKey: .name)
        protocolVersion = try? container.decodeIfPresent(String.self, forKey: .protocolVersion)
        sourceVersion = try? container.decodeIfPresent(String.self, forKey: .sourceVersion)
        vv = try? container.decodeIfPresent(Int.self, forKey: .vv)
        profile = try? container.decodeIfPresent(String.self, forKey: .profile)
        // Only a scale a receiver can run at: above 0 and finite, at most a thousand.
        timeScale = (try? container.decodeIfPresent(Double.self, forKey: .timeScale)).flatMap { $0 }.flatMap { $0 > 0 && $0 <= 1000 ? $0 : nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(deviceID, forKey: .deviceID)
        try container.encodeIfPresent(features.map { Int64(bitPattern: $0) }, forKey: .features)
        try container.encodeIfPresent(model, forKey: .model)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(protocolVersion, forKey: .protocolVersion)
        try container.encodeIfPresent(sourceVersion, forKey: .sourceVersion)
        try container.encodeIfPresent(vv, forKey: .vv)
        try container.encodeIfPresent(profile, forKey: .profile)
        try container.encodeIfPresent(timeScale, forKey: .timeScale)
    }

    /// The property list, written directly (see `XMLPropertyList`): senders poll it.
    public func propertyList() -> Data {
        (try? XMLPropertyList(encoding: self).document()) ?? Data()
    }

    /// Reads a receiver's answer; nil when it is not a property list dictionary.
    public init?(propertyList data: Data) {
        guard let info = try? PropertyListInput.decode(ServerInfo.self, from: data) else { return nil }
        self = info
    }
}

extension KeyedDecodingContainer {
    /// Feature bits from a property list: devices write the 64 bits as a signed integer (bit 63 makes it
    /// negative), so both readings are taken; nil when absent or not an integer.
    func featureBits(forKey key: Key) -> UInt64? {
        if let signed = try? decodeIfPresent(Int64.self, forKey: key) { return UInt64(bitPattern: signed) }
        return try? decodeIfPresent(UInt64.self, forKey: key)
    }
}
