import Cryptography

/// Which end of a HAP session this process is: the controller (the sender, pyatv, an iPhone) or the
/// accessory (the receiver, airlabd).
public enum PairingRole: Sendable {
    case controller
    case accessory
}

/// One encrypted connection of a HAP session, both directions: the sealer for what this end writes,
/// the opener for what it reads.
///
/// Keys come from the session's shared secret (the SRP K after transient pair-setup, the X25519 secret
/// after pair-verify) with HKDF-SHA512. The key names are the controller's view on the control
/// channel (the controller writes with "Control-Write-Encryption-Key", the accessory reads with it)
/// and the accessory's on the event channel (the accessory writes events with
/// "Events-Write-Encryption-Key", the controller reads with it), as pyatv uses them.
public struct HAPChannel: Sendable {
    public var sealer: HAPFrameSealer
    public var opener: HAPFrameOpener

    /// The two keys of a channel, named by direction.
    public struct Keys: Sendable, Equatable {
        public let controllerToAccessory: [UInt8]
        public let accessoryToController: [UInt8]
    }

    public static func controlKeys(sharedSecret: [UInt8]) throws -> Keys {
        Keys(
            controllerToAccessory: try HKDF.sha512(secret: sharedSecret, salt: "Control-Salt", info: "Control-Write-Encryption-Key"),
            accessoryToController: try HKDF.sha512(secret: sharedSecret, salt: "Control-Salt", info: "Control-Read-Encryption-Key"))
    }

    public static func eventKeys(sharedSecret: [UInt8]) throws -> Keys {
        Keys(
            controllerToAccessory: try HKDF.sha512(secret: sharedSecret, salt: "Events-Salt", info: "Events-Read-Encryption-Key"),
            accessoryToController: try HKDF.sha512(secret: sharedSecret, salt: "Events-Salt", info: "Events-Write-Encryption-Key"))
    }

    public init(keys: Keys, role: PairingRole) {
        switch role {
        case .controller:
            sealer = HAPFrameSealer(key: keys.controllerToAccessory)
            opener = HAPFrameOpener(key: keys.accessoryToController)
        case .accessory:
            sealer = HAPFrameSealer(key: keys.accessoryToController)
            opener = HAPFrameOpener(key: keys.controllerToAccessory)
        }
    }

    /// The control channel (the RTSP/HTTP connection pairing happened on) of `role`.
    public static func control(sharedSecret: [UInt8], role: PairingRole) throws -> HAPChannel {
        HAPChannel(keys: try controlKeys(sharedSecret: sharedSecret), role: role)
    }

    /// The event channel (AirPlay 2's event port) of `role`.
    public static func events(sharedSecret: [UInt8], role: PairingRole) throws -> HAPChannel {
        HAPChannel(keys: try eventKeys(sharedSecret: sharedSecret), role: role)
    }
}
