import Foundation
import Profiles

/// Who a receiver says it is: in `GET /server-info`, `GET /info` and the `_airplay._tcp` TXT record,
/// as the device its profile names publishes it (`AirPlayDevice`).
public struct ReceiverIdentity: Sendable, Equatable {
    public var name: String
    public var model: String
    /// A MAC-like identifier, stable for one seed (the profile's), so a receiver keeps its identity across restarts.
    public var deviceID: String
    public var hasPassword: Bool
    public var profile: String
    /// The device record: feature bits, flags and versions.
    public var device: AirPlayDevice
    /// `pi`, the pairing identity: a UUID stable for the seed, as the device ID is.
    public var pairingID: String
    /// `pk`, the receiver's long-term Ed25519 public key, once it keeps one (an AirPlay 2 receiver does).
    public var publicKey: [UInt8]?

    public init(
        name: String, model: String, deviceIDSeed: String, hasPassword: Bool = false, profile: String, device: AirPlayDevice = .legacy,
        publicKey: [UInt8]? = nil
    ) {
        self.name = name
        self.model = model
        deviceID = Self.deviceID(seed: deviceIDSeed)
        self.hasPassword = hasPassword
        self.profile = profile
        self.device = device
        pairingID = Self.pairingID(seed: deviceIDSeed)
        self.publicKey = publicKey
    }

    /// Six bytes of FNV-1a over the seed, written as a locally administered MAC address.
    static func deviceID(seed: String) -> String {
        let hash = StableHash.fnv1a(seed)
        var bytes = (0..<6).map { UInt8(truncatingIfNeeded: hash >> (8 * UInt64($0))) }
        // Locally administered, unicast: never a real vendor's address.
        bytes[0] = (bytes[0] | 0x02) & 0xFE
        return bytes.map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// A version 4-shaped UUID from two FNV-1a hashes of the seed.
    static func pairingID(seed: String) -> String {
        let halves = [StableHash.fnv1a("pi " + seed), StableHash.fnv1a("pi2 " + seed)]
        var bytes = halves.flatMap { hash in (0..<8).map { UInt8(truncatingIfNeeded: hash >> (8 * UInt64($0))) } }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let uuid = UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return uuid.uuidString.lowercased()
    }

    /// The status flags as published: the device's, with 0x80 (a password is required) when one is set.
    public var statusFlags: UInt32 { device.flags | (hasPassword ? 0x80 : 0) }

    /// `features` as the TXT record and server-info write it.
    public var featuresText: String { device.features.text }

    public var isAirPlay2: Bool { device.isAirPlay2 }

    /// The TXT record of `_airplay._tcp`, in a stable order. An AirPlay 1 record keeps the few keys such
    /// receivers publish; an AirPlay 2 one adds the pairing identity and key, versions and `acl`.
    public var txtRecord: [(key: String, value: String)] {
        var record = [("deviceid", deviceID), ("features", featuresText), ("flags", "0x" + String(statusFlags, radix: 16, uppercase: true)), ("model", model)]
        if isAirPlay2 {
            record.append(("acl", "0"))
            if let publicKey { record.append(("pk", Self.hex(publicKey))) }
            record.append(("pi", pairingID))
            record.append(("protovers", device.protocolVersion))
            if let osVersion = device.osVersion { record.append(("osvers", osVersion)) }
        }
        record += [("srcvers", device.sourceVersion), ("vv", String(device.vv)), ("airlab.profile", profile)]
        if hasPassword { record.append(("pw", "1")) }
        return record
    }

    /// `GET /server-info`'s answer.
    public var serverInfo: ServerInfo {
        ServerInfo(
            deviceID: deviceID, features: device.features.rawValue, model: model, name: name, protocolVersion: device.protocolVersion,
            sourceVersion: device.sourceVersion, vv: device.vv, profile: profile)
    }

    /// `GET /info`'s answer.
    public var deviceInfo: DeviceInfo {
        DeviceInfo(
            deviceID: deviceID, features: device.features.rawValue, statusFlags: statusFlags, model: model, name: name,
            sourceVersion: device.sourceVersion, protocolVersion: device.protocolVersion, osVersion: device.osVersion, vv: device.vv,
            pairingID: isAirPlay2 ? pairingID : nil, publicKey: isAirPlay2 ? publicKey : nil, profile: profile)
    }
}

extension ReceiverIdentity {
    /// Key bytes as the wire writes them (TXT `pk`, `GET /pairings`): lowercase hex, no separators.
    public static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
