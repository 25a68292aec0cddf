import Cryptography

/// The controller's side of pair-verify: `start()` gives M1; the accessory's M2 is checked against the
/// accessory pair-setup left (its identifier and long-term key) and answered with M3; M4 finishes
/// with the X25519 secret as the session's shared secret.
public struct PairVerifyClient: Sendable {
    private enum Stage: Sendable {
        case notStarted
        case awaitingM2
        case awaitingM4(sharedSecret: [UInt8])
        case ended
    }

    private let identity: PairingIdentity
    private let accessory: PairedPeer
    private let own: X25519PrivateKey
    private var stage = Stage.notStarted

    public init(identity: PairingIdentity, accessory: PairedPeer) throws {
        self.identity = identity
        self.accessory = accessory
        own = try X25519PrivateKey()
    }

    /// M1: this session's X25519 public key.
    public mutating func start() -> [UInt8] {
        stage = .awaitingM2
        let request: TLV8 = [.state: [1], .publicKey: own.publicKey]
        return request.encoded()
    }

    /// The next request (nil when the exchange is over) and where it stands.
    public mutating func handle(_ responseBody: [UInt8]) -> (request: [UInt8]?, outcome: PairingOutcome) {
        do {
            return try step(responseBody)
        } catch {
            stage = .ended
            return (nil, .failed(error))
        }
    }

    private mutating func step(_ body: [UInt8]) throws(PairingFailure) -> (request: [UInt8]?, outcome: PairingOutcome) {
        let tlv = try PairingMessage.read(body, "pair-verify answer")
        let state = PairingMessage.state(tlv)
        if let error = tlv[.error] {
            throw PairingFailure("pair-verify M\(state ?? 0)", .peerError(error.count == 1 ? HAPErrorCode(rawValue: error[0]) ?? .unknown : .unknown))
        }
        switch (stage, state) {
        case (.awaitingM2, 2): return try m2(tlv)
        case (.awaitingM4(let secret), 4):
            stage = .ended
            return (nil, .finished(PairingResult(sharedSecret: secret, peer: accessory)))
        default:
            let expected: UInt8? =
                switch stage {
                case .awaitingM2: 2
                case .awaitingM4: 4
                case .notStarted, .ended: nil
                }
            throw PairingFailure("pair-verify answer", .unexpectedState(expected: expected, received: state))
        }
    }

    private mutating func m2(_ tlv: TLV8) throws(PairingFailure) -> ([UInt8]?, PairingOutcome) {
        let name = "pair-verify M2"
        let accessoryPublic = try PairingMessage.require(tlv, .publicKey, count: 32, name)
        let sealed = try PairingMessage.require(tlv, .encryptedData, name)
        let own = self.own
        let (secret, key) = try PairingMessage.crypto(name) { () throws -> ([UInt8], [UInt8]) in
            let secret = try own.sharedSecret(with: accessoryPublic)
            return (secret, try HKDF.sha512(secret: secret, salt: "Pair-Verify-Encrypt-Salt", info: "Pair-Verify-Encrypt-Info"))
        }
        let inner = try PairingMessage.open(sealed, key: key, nonce: "PV-Msg02", name)
        let identifierBytes = try PairingMessage.require(inner, .identifier, name)
        let identifier = try PairingMessage.identifier(identifierBytes, name)
        guard identifier == accessory.identifier else { throw PairingFailure(name, .unknownPeer(identifier)) }
        let signature = try PairingMessage.require(inner, .signature, name)
        try PairingMessage.verify(accessory.publicKey, signature, accessoryPublic + identifierBytes + own.publicKey, name)
        let identity = self.identity
        let reply = try PairingMessage.crypto("pair-verify M3") { () throws -> TLV8 in
            let identifier = Array(identity.identifier.utf8)
            let signature = try identity.key.signature(for: own.publicKey + identifier + accessoryPublic)
            return [.identifier: identifier, .signature: signature]
        }
        let encrypted = try PairingMessage.seal(reply, key: key, nonce: "PV-Msg03")
        stage = .awaitingM4(sharedSecret: secret)
        let request: TLV8 = [.state: [3], .encryptedData: encrypted]
        return (request.encoded(), .continuing)
    }
}
