import Foundation

/// `GET /info`'s binary property list: the device record AirPlay 2 senders read before pairing (the
/// TXT record's values, with `features` and `statusFlags` as integers and `pk` as data). A sender reads
/// any receiver's, so every member is optional when decoding.
public struct DeviceInfo: Sendable, Equatable, Codable {
    public var deviceID: String?
    public var features: UInt64?
    public var statusFlags: UInt32?
    public var model: String?
    public var name: String?
    public var sourceVersion: String?
    public var protocolVersion: String?
    public var osVersion: String?
    public var vv: Int?
    /// `pi`.
    public var pairingID: String?
    /// `pk`: the receiver's Ed25519 public key.
    public var publicKey: [UInt8]?
    /// airlab's receivers only: the profile they emulate.
    public var profile: String?

    public init(
        deviceID: String? = nil, features: UInt64? = nil, statusFlags: UInt32? = nil, model: String? = nil, name: String? = nil,
        sourceVersion: String? = nil, protocolVersion: String? = nil, osVersion: String? = nil, vv: Int? = nil, pairingID: String? = nil,
        publicKey: [UInt8]? = nil, profile: String? = nil
    ) {
        self.deviceID = deviceID
        self.features = features
        self.statusFlags = statusFlags
        self.model = model
        self.name = name
        self.sourceVersion = sourceVersion
        self.protocolVersion = protocolVersion
        self.osVersion = osVersion
        self.vv = vv
        self.pairingID = pairingID
        self.publicKey = publicKey
        self.profile = profile
    }

    enum CodingKeys: String, CodingKey {
        case deviceID, features, statusFlags, model, name, sourceVersion, protocolVersion, osVersion = "osvers", vv
        case pairingID = "pi", publicKey = "pk", macAddress
        case profile = "airlab.profile"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        deviceID = try? container.decodeIfPresent(String.self, forKey: .deviceID)
        features = container.featureBits(forKey: .features)
        statusFlags = try? container.decodeIfPresent(UInt32.self, forKey: .statusFlags)
        model = try? container.decodeIfPresent(String.self, forKey: .model)
        name = try? container.decodeIfPresent(String.self, forKey: .name)
        sourceVersion = try? container.decodeIfPresent(String.self, forKey: .sourceVersion)
        protocolVersion = try? container.decodeIfPresent(String.self, forKey: .protocolVersion)
        osVersion = try? container.decodeIfPresent(String.self, forKey: .osVersion)
        vv = try? container.decodeIfPresent(Int.self, forKey: .vv)
        pairingID = try? container.decodeIfPresent(String.self, forKey: .pairingID)
        publicKey = (try? container.decodeIfPresent(Data.self, forKey: .publicKey)).flatMap { $0.map { [UInt8]($0) } }
        profile = try? container.decodeIfPresent(String.self, forKey: .profile)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(deviceID, forKey: .deviceID)
        // Real devices publish their MAC address beside the device ID, which is the same.
        try container.encodeIfPresent(deviceID, forKey: .macAddress)
        try container.encodeIfPresent(features.map { Int64(bitPattern: $0) }, forKey: .features)
        try container.encodeIfPresent(statusFlags, forKey: .statusFlags)
        try container.encodeIfPresent(model, forKey: .model)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(sourceVersion, forKey: .sourceVersion)
        try container.encodeIfPresent(protocolVersion, forKey: .protocolVersion)
        try container.encodeIfPresent(osVersion, forKey: .osVersion)
        try container.encodeIfPresent(vv, forKey: .vv)
        try container.encodeIfPresent(pairingID, forKey: .pairingID)
        try container.encodeIfPresent(publicKey.map { Data($0) }, forKey: .publicKey)
        try container.encodeIfPresent(profile, forKey: .profile)
    }

    /// The binary property list, as AirPlay 2 devices answer (`application/x-apple-binary-plist`).
    public func propertyList() -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return (try? encoder.encode(self)) ?? Data()
    }

    /// Reads a receiver's answer; nil when it is not a property list dictionary.
    public init?(propertyList data: Data) {
        guard let info = try? PropertyListInput.decode(DeviceInfo.self, from: data) else { return nil }
        self = info
    }
}
