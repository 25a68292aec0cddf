import Cryptography

/// The accessory's side of pair-verify (`POST /pair-verify`): M1 (the controller's X25519 key) is
/// answered with the accessory's key and its signed identity (M2); M3 (the controller's signed
/// identity) is checked against the paired controllers and answered with M4. The X25519 secret is the
/// session's shared secret. No I/O: the owner passes the lookup of paired controllers.
public struct PairVerifyServer: Sendable {
    private enum Stage: Sendable {
        case awaitingM1
        case awaitingM3(sharedSecret: [UInt8], key: [UInt8], controllerPublic: [UInt8], accessoryPublic: [UInt8])
        case ended
    }

    private let identity: PairingIdentity
    private let controller: @Sendable (String) -> Ed25519PublicKey?
    private var stage = Stage.awaitingM1

    /// - Parameters:
    ///   - identity: the accessory's identifier and long-term key.
    ///   - controller: the long-term public key of a paired controller by its identifier, nil when it
    ///     never paired (a `PairingStore` answers this).
    public init(identity: PairingIdentity, controller: @escaping @Sendable (String) -> Ed25519PublicKey?) {
        self.identity = identity
        self.controller = controller
    }

    /// The answer to one request body, and where the exchange stands.
    public mutating func handle(_ requestBody: [UInt8]) -> (response: [UInt8], outcome: PairingOutcome) {
        let received = (try? TLV8.decode(requestBody)).flatMap(PairingMessage.state)
        do {
            return try step(requestBody)
        } catch {
            stage = .ended
            return (PairingMessage.error(state: received.map { $0 &+ 1 } ?? 2, error.code), .failed(error))
        }
    }

    private mutating func step(_ body: [UInt8]) throws(PairingFailure) -> (response: [UInt8], outcome: PairingOutcome) {
        let tlv = try PairingMessage.read(body, "pair-verify request")
        let state = PairingMessage.state(tlv)
        switch (stage, state) {
        case (.awaitingM1, 1): return try m1(tlv)
        case (.awaitingM3(let secret, let key, let controllerPublic, let accessoryPublic), 3):
            return try m3(tlv, sharedSecret: secret, key: key, controllerPublic: controllerPublic, accessoryPublic: accessoryPublic)
        default:
            let expected: UInt8? =
                switch stage {
                case .awaitingM1: 1
                case .awaitingM3: 3
                case .ended: nil
                }
            throw PairingFailure("pair-verify", .unexpectedState(expected: expected, received: state))
        }
    }

    private mutating func m1(_ tlv: TLV8) throws(PairingFailure) -> ([UInt8], PairingOutcome) {
        let name = "pair-verify M1"
        let controllerPublic = try PairingMessage.require(tlv, .publicKey, count: 32, name)
        let identity = self.identity
        let (secret, key, accessoryPublic, inner) = try PairingMessage.crypto(name) { () throws -> ([UInt8], [UInt8], [UInt8], TLV8) in
            let own = try X25519PrivateKey()
            let secret = try own.sharedSecret(with: controllerPublic)
            let key = try HKDF.sha512(secret: secret, salt: "Pair-Verify-Encrypt-Salt", info: "Pair-Verify-Encrypt-Info")
            let identifier = Array(identity.identifier.utf8)
            let signature = try identity.key.signature(for: own.publicKey + identifier + controllerPublic)
            return (secret, key, own.publicKey, [.identifier: identifier, .signature: signature])
        }
        let encrypted = try PairingMessage.seal(inner, key: key, nonce: "PV-Msg02")
        stage = .awaitingM3(sharedSecret: secret, key: key, controllerPublic: controllerPublic, accessoryPublic: accessoryPublic)
        let answer: TLV8 = [.state: [2], .publicKey: accessoryPublic, .encryptedData: encrypted]
        return (answer.encoded(), .continuing)
    }

    private mutating func m3(
        _ tlv: TLV8, sharedSecret: [UInt8], key: [UInt8], controllerPublic: [UInt8], accessoryPublic: [UInt8]
    ) throws(PairingFailure) -> ([UInt8], PairingOutcome) {
        let name = "pair-verify M3"
        let sealed = try PairingMessage.require(tlv, .encryptedData, name)
        let inner = try PairingMessage.open(sealed, key: key, nonce: "PV-Msg03", name)
        let identifierBytes = try PairingMessage.require(inner, .identifier, name)
        let identifier = try PairingMessage.identifier(identifierBytes, name)
        let signature = try PairingMessage.require(inner, .signature, name)
        guard let publicKey = controller(identifier) else { throw PairingFailure(name, .unknownPeer(identifier)) }
        try PairingMessage.verify(publicKey, signature, controllerPublic + identifierBytes + accessoryPublic, name)
        stage = .ended
        let answer: TLV8 = [.state: [4]]
        return (answer.encoded(), .finished(PairingResult(sharedSecret: sharedSecret, peer: PairedPeer(identifier: identifier, publicKey: publicKey))))
    }
}
