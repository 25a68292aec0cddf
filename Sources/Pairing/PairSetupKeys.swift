import Cryptography

/// The keys pair-setup M5 and M6 derive from the SRP session key K (HAP 5.6.5-5.6.6).
struct PairSetupKeys: Sendable {
    /// Seals M5's and M6's sub-TLVs.
    let encryption: [UInt8]
    /// iOSDeviceX: the start of what the controller signs in M5.
    let controllerSign: [UInt8]
    /// AccessoryX: the start of what the accessory signs in M6.
    let accessorySign: [UInt8]

    init(sessionKey: [UInt8]) throws {
        encryption = try HKDF.sha512(secret: sessionKey, salt: "Pair-Setup-Encrypt-Salt", info: "Pair-Setup-Encrypt-Info")
        controllerSign = try HKDF.sha512(secret: sessionKey, salt: "Pair-Setup-Controller-Sign-Salt", info: "Pair-Setup-Controller-Sign-Info")
        accessorySign = try HKDF.sha512(secret: sessionKey, salt: "Pair-Setup-Accessory-Sign-Salt", info: "Pair-Setup-Accessory-Sign-Info")
    }

    /// The sub-TLV of M5 or M6: the sender's identifier, long-term public key, and its signature over
    /// `x | identifier | public key`.
    static func signedIdentity(_ identity: PairingIdentity, x: [UInt8]) throws -> TLV8 {
        let identifier = Array(identity.identifier.utf8)
        let signature = try identity.key.signature(for: x + identifier + identity.key.publicKey.rawBytes)
        return [.identifier: identifier, .publicKey: identity.key.publicKey.rawBytes, .signature: signature]
    }

    /// The peer a sub-TLV of M5 or M6 proves, after its signature is checked against `x`.
    static func verifiedPeer(_ tlv: TLV8, x: [UInt8], _ name: String) throws(PairingFailure) -> PairedPeer {
        let identifier = try PairingMessage.require(tlv, .identifier, name)
        let publicKey = try PairingMessage.publicKey(try PairingMessage.require(tlv, .publicKey, name), name)
        let signature = try PairingMessage.require(tlv, .signature, name)
        try PairingMessage.verify(publicKey, signature, x + identifier + publicKey.rawBytes, name)
        return PairedPeer(identifier: try PairingMessage.identifier(identifier, name), publicKey: publicKey)
    }
}
