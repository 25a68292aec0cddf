import Cryptography

/// One end's long-term identity: its pairing identifier (a device id or a controller's UUID, as
/// UTF-8 bytes on the wire) and its Ed25519 key.
public struct PairingIdentity: Sendable {
    public let identifier: String
    public let key: Ed25519PrivateKey

    public init(identifier: String, key: Ed25519PrivateKey) {
        self.identifier = identifier
        self.key = key
    }

    public var peer: PairedPeer { PairedPeer(identifier: identifier, publicKey: key.publicKey) }

    /// A fresh identity kept nowhere: a sender without stored pairings pairs transiently, where M5 (the
    /// only message that carries it) is never sent.
    public static func ephemeral(identifier: String) throws -> PairingIdentity {
        PairingIdentity(identifier: identifier, key: try Ed25519PrivateKey())
    }
}

/// The other end as a pairing left it: its identifier and its long-term public key.
public struct PairedPeer: Sendable, Equatable {
    public let identifier: String
    public let publicKey: Ed25519PublicKey

    public init(identifier: String, publicKey: Ed25519PublicKey) {
        self.identifier = identifier
        self.publicKey = publicKey
    }
}

/// What a finished pairing step leaves: the shared secret channel keys come from (`HAPChannel`), and
/// the peer it proved to be (nil after transient pair-setup, which proves only the PIN).
public struct PairingResult: Sendable {
    public let sharedSecret: [UInt8]
    public let peer: PairedPeer?

    public func controlChannel(as role: PairingRole) throws -> HAPChannel { try .control(sharedSecret: sharedSecret, role: role) }
    public func eventChannel(as role: PairingRole) throws -> HAPChannel { try .events(sharedSecret: sharedSecret, role: role) }
}

/// Where one exchange of pairing messages stands after a message.
public enum PairingOutcome: Sendable {
    /// More messages to come.
    case continuing
    case finished(PairingResult)
    /// The exchange is over; the answer (if any) carries the HAP error, the failure says why for the log.
    case failed(PairingFailure)
}
