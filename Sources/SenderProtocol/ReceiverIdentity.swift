import Foundation
import Profiles

/// Who a receiver says it is: in `GET /server-info` and in the `_airplay._tcp` TXT record.
public struct ReceiverIdentity: Sendable, Equatable {
    /// Legacy AirPlay video feature bits: Video (0), VideoHTTPLiveStreams (4) and Audio (9). Never the
    /// AirPlay 2 bits (38, 48): senders would then expect a protocol airlab does not speak.
    public static let features: UInt64 = 1 << 0 | 1 << 4 | 1 << 9
    public static let sourceVersion = "220.68"
    public static let protocolVersion = "1.0"

    public var name: String
    public var model: String
    /// A MAC-like identifier, stable for one seed (the profile's), so a receiver keeps its identity across restarts.
    public var deviceID: String
    public var hasPassword: Bool
    public var profile: String

    public init(name: String, model: String, deviceIDSeed: String, hasPassword: Bool = false, profile: String) {
        self.name = name
        self.model = model
        deviceID = Self.deviceID(seed: deviceIDSeed)
        self.hasPassword = hasPassword
        self.profile = profile
    }

    /// Six bytes of FNV-1a over the seed, written as a locally administered MAC address.
    static func deviceID(seed: String) -> String {
        let hash = StableHash.fnv1a(seed)
        var bytes = (0..<6).map { UInt8(truncatingIfNeeded: hash >> (8 * UInt64($0))) }
        // Locally administered, unicast: never a real vendor's address.
        bytes[0] = (bytes[0] | 0x02) & 0xFE
        return bytes.map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// `features` as the TXT record and server-info write it: lowercase hexadecimal.
    public var featuresText: String { "0x" + String(Self.features, radix: 16) }

    /// The TXT record of `_airplay._tcp`, in a stable order. `flags` are status flags: 0x4 (audio
    /// cable attached, as Apple TVs advertise) and 0x80 (password required) when a password is set.
    public var txtRecord: [(key: String, value: String)] {
        var record = [
            ("deviceid", deviceID), ("features", featuresText), ("flags", hasPassword ? "0x84" : "0x4"), ("model", model),
            ("srcvers", Self.sourceVersion), ("vv", "2"), ("airlab.profile", profile),
        ]
        if hasPassword { record.append(("pw", "1")) }
        return record
    }

    /// `GET /server-info`'s answer.
    public var serverInfo: ServerInfo {
        ServerInfo(
            deviceID: deviceID, features: Self.features, model: model, name: name, protocolVersion: Self.protocolVersion,
            sourceVersion: Self.sourceVersion, vv: 2, profile: profile)
    }
}
