/// A receiver a sender can cast to, with what it is known to be.
import Profiles
import SenderProtocol
import Sessions

public struct Receiver: Sendable, Hashable {
    /// The friendly name (the mDNS instance name, or what `airlabd` printed); nil when only an address was given.
    public var name: String?
    public var address: ReceiverAddress
    /// The airlab profile it emulates (TXT `airlab.profile`), nil for a receiver that is not airlab's.
    public var profile: String?
    public var model: String?
    public var deviceID: String?
    /// What its TXT record says it speaks; nil when only an address was given.
    public var features: AirPlayFeatures?
    /// Its TXT `flags` (pyatv reads `sf` too); nil when absent or unreadable.
    public var statusFlags: UInt32?
    /// An airlab receiver's session seconds per real second, as its `/server-info` says; nil otherwise.
    public var timeScale: Double?

    public init(
        name: String? = nil, address: ReceiverAddress, profile: String? = nil, model: String? = nil, deviceID: String? = nil,
        features: AirPlayFeatures? = nil, statusFlags: UInt32? = nil
    ) {
        self.name = name
        self.address = address
        self.profile = profile
        self.model = model
        self.deviceID = deviceID
        self.features = features
        self.statusFlags = statusFlags
    }

    /// The path a sender takes to it, by the rule senders use (bit 38 or 48: AirPlay 2); nil when its
    /// record is unknown.
    public var path: CastOrigin.Path? {
        features.map { $0.isAirPlay2 ? .airPlay2 : .airPlay1 }
    }

    /// What a sender must do before casting, from its record.
    public var pairing: PairingNeed? {
        guard let path else { return nil }
        let flags = statusFlags ?? 0
        switch path {
        case .airPlay1: return flags & 0x80 != 0 ? .password : PairingNeed.none
        // 0x200 (pairing required) or 0x8 (PIN required) ask for a PIN pairing; otherwise transient
        // pairing, which needs no PIN shown, is enough.
        case .airPlay2: return flags & (0x200 | 0x8) != 0 ? .pin : .transient
        }
    }

    /// This receiver with what its `/server-info` says added where nothing was known: its name,
    /// profile, model, device ID, features (the AirPlay path it takes) and an airlab receiver's time scale.
    public func filled(from info: ServerInfo) -> Receiver {
        var receiver = self
        receiver.name = name ?? info.name
        receiver.profile = profile ?? info.profile
        receiver.model = model ?? info.model
        receiver.deviceID = deviceID ?? info.deviceID
        receiver.features = features ?? info.features.map(AirPlayFeatures.init(rawValue:))
        receiver.timeScale = timeScale ?? info.timeScale
        return receiver
    }

    /// How messages name it: `receiver "Living Room" (10.0.0.5:7000)`, or `receiver 10.0.0.5:7000`.
    public var label: String {
        name.map { "receiver \"\($0)\" (\(address))" } ?? "receiver \(address)"
    }
}

/// What a receiver's record asks of a sender before it casts.
public enum PairingNeed: String, Sendable, Hashable, Codable {
    case none
    /// AirPlay 1 with a password (Digest).
    case password
    /// AirPlay 2 transient pairing: the fixed PIN, nothing stored.
    case transient
    /// AirPlay 2 pairing with the PIN the receiver shows (`airlab pair`), then pair-verify.
    case pin
}
