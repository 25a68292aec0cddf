import Cryptography

/// The controller's side of pair-setup: `start()` gives M1, each answer the next request until the
/// outcome is `.finished` (transient: after M4, with K as the shared secret; PIN: after M6, with the
/// accessory's long-term key to keep for pair-verify) or `.failed`.
public struct PairSetupClient: Sendable {
    private enum Stage: Sendable {
        case notStarted
        case awaitingM2
        case awaitingM4(expectedProof: [UInt8], sessionKey: [UInt8])
        case awaitingM6(PairSetupKeys, sessionKey: [UInt8])
        case ended
    }

    private let identity: PairingIdentity
    private let pin: String
    private let transient: Bool
    private let srp: SRPClient
    private var stage = Stage.notStarted

    /// - Parameters:
    ///   - identity: the controller's identifier and long-term key (sent in M5; unused when transient).
    ///   - pin: the PIN the accessory shows; `PairSetupServer.transientPIN` for transient pairing.
    ///   - srpPrivateKey: a fixed SRP private value, for tests; random when nil.
    public init(identity: PairingIdentity, pin: String, transient: Bool, srpPrivateKey: [UInt8]? = nil) throws {
        self.identity = identity
        self.pin = pin
        self.transient = transient
        srp = try SRPClient(password: pin, privateKey: srpPrivateKey)
    }

    /// M1: the pair-setup method and, when transient, flags 0x10.
    public mutating func start() -> [UInt8] {
        stage = .awaitingM2
        var items: [TLV8.Item] = [TLV8.Item(TLVType.method.rawValue, [PairingMethod.pairSetup]), TLV8.Item(TLVType.state.rawValue, [1])]
        if transient { items.append(TLV8.Item(TLVType.flags.rawValue, [UInt8(PairingFlags.transient)])) }
        return TLV8(items).encoded()
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
        let tlv = try PairingMessage.read(body, "pair-setup answer")
        let state = PairingMessage.state(tlv)
        switch (stage, state) {
        case (.awaitingM2, 2): return try m2(tlv)
        case (.awaitingM4(let expected, let key), 4): return try m4(tlv, expectedProof: expected, sessionKey: key)
        case (.awaitingM6(let keys, let sessionKey), 6): return try m6(tlv, keys, sessionKey: sessionKey)
        default: throw PairingFailure("pair-setup answer", .unexpectedState(expected: expectedState, received: state))
        }
    }

    private var expectedState: UInt8? {
        switch stage {
        case .awaitingM2: return 2
        case .awaitingM4: return 4
        case .awaitingM6: return 6
        case .notStarted, .ended: return nil
        }
    }

    private static func peerError(_ tlv: TLV8, _ name: String) throws(PairingFailure) {
        guard let error = tlv[.error] else { return }
        throw PairingFailure(name, .peerError(error.count == 1 ? HAPErrorCode(rawValue: error[0]) ?? .unknown : .unknown))
    }

    private mutating func m2(_ tlv: TLV8) throws(PairingFailure) -> ([UInt8]?, PairingOutcome) {
        let name = "pair-setup M2"
        try Self.peerError(tlv, name)
        let salt = try PairingMessage.require(tlv, .salt, name)
        let serverPublic = try PairingMessage.require(tlv, .publicKey, name)
        let srp = self.srp
        guard salt.count <= 64, !serverPublic.isEmpty, serverPublic.count <= srp.group.width else {
            throw PairingFailure(name, .invalidItem(.publicKey, "or salt has an impossible length"))
        }
        let response: (proof: [UInt8], expectedServerProof: [UInt8], sessionKey: [UInt8])
        do {
            response = try srp.respond(salt: salt, serverPublicKey: serverPublic)
        } catch {
            throw PairingFailure(name, .srp(error))
        }
        stage = .awaitingM4(expectedProof: response.expectedServerProof, sessionKey: response.sessionKey)
        let request: TLV8 = [.state: [3], .publicKey: srp.publicKey, .proof: response.proof]
        return (request.encoded(), .continuing)
    }

    private mutating func m4(_ tlv: TLV8, expectedProof: [UInt8], sessionKey: [UInt8]) throws(PairingFailure) -> ([UInt8]?, PairingOutcome) {
        let name = "pair-setup M4"
        try Self.peerError(tlv, name)
        let proof = try PairingMessage.require(tlv, .proof, name)
        guard SRP.sameProof(proof, expectedProof) else { throw PairingFailure(name, .srp(.wrongServerProof)) }
        if transient {
            stage = .ended
            return (nil, .finished(PairingResult(sharedSecret: sessionKey, peer: nil)))
        }
        let identity = self.identity
        let (keys, inner) = try PairingMessage.crypto("pair-setup M5") { () throws -> (PairSetupKeys, TLV8) in
            let keys = try PairSetupKeys(sessionKey: sessionKey)
            return (keys, try PairSetupKeys.signedIdentity(identity, x: keys.controllerSign))
        }
        let encrypted = try PairingMessage.seal(inner, key: keys.encryption, nonce: "PS-Msg05")
        stage = .awaitingM6(keys, sessionKey: sessionKey)
        let request: TLV8 = [.state: [5], .encryptedData: encrypted]
        return (request.encoded(), .continuing)
    }

    private mutating func m6(_ tlv: TLV8, _ keys: PairSetupKeys, sessionKey: [UInt8]) throws(PairingFailure) -> ([UInt8]?, PairingOutcome) {
        let name = "pair-setup M6"
        try Self.peerError(tlv, name)
        let sealed = try PairingMessage.require(tlv, .encryptedData, name)
        let inner = try PairingMessage.open(sealed, key: keys.encryption, nonce: "PS-Msg06", name)
        let accessory = try PairSetupKeys.verifiedPeer(inner, x: keys.accessorySign, name)
        stage = .ended
        return (nil, .finished(PairingResult(sharedSecret: sessionKey, peer: accessory)))
    }
}
