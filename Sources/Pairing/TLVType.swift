/// The TLV types of HomeKit pairing (HAP specification, table 5-6), and Apple's two additions AirPlay
/// uses (`name`, `flags`).
public enum TLVType: UInt8, Sendable {
    case method = 0x00
    case identifier = 0x01
    case salt = 0x02
    case publicKey = 0x03
    case proof = 0x04
    case encryptedData = 0x05
    case state = 0x06
    case error = 0x07
    case retryDelay = 0x08
    case certificate = 0x09
    case signature = 0x0A
    case permissions = 0x0B
    case fragmentData = 0x0C
    case fragmentLast = 0x0D
    case name = 0x11
    case flags = 0x13
    case separator = 0xFF
}

/// HAP's error codes (kTLVError_…), sent as the `error` item of an answer.
public enum HAPErrorCode: UInt8, Sendable, Equatable {
    case unknown = 0x01
    /// A wrong PIN (the SRP proof) or a signature that does not verify.
    case authentication = 0x02
    case backoff = 0x03
    case maxPeers = 0x04
    case maxTries = 0x05
    /// The accessory takes no new pairing now (it is paired already).
    case unavailable = 0x06
    case busy = 0x07
}

/// The pair-setup method (`method` item of M1).
enum PairingMethod {
    static let pairSetup: UInt8 = 0x00
}

/// The `flags` of pair-setup M1.
enum PairingFlags {
    /// Transient pairing (AirPlay's `X-Apple-HKP: 4`): stop after M4, keys from the SRP session key.
    static let transient: UInt32 = 0x10
}
