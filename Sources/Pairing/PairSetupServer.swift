import Cryptography

/// The accessory's side of pair-setup (`POST /pair-setup`): a value the owner feeds each request body
/// and that returns the body to answer with and where the exchange stands. No I/O: a controller that
/// pairs for good comes out in `.finished`, and the owner stores it.
///
/// Transient pairing (M1 with flags 0x10, AirPlay's `X-Apple-HKP: 4`) ends after M4 with K as the
/// shared secret; PIN pairing goes on to M5/M6, where both ends exchange their long-term keys. Any
/// message other than the next one (out of order, replayed, after the end) is refused with a HAP error
/// and ends the exchange.
public struct PairSetupServer: Sendable {
    /// The PIN of transient pairing, fixed by Apple's senders.
    public static let transientPIN = "3939"

    private enum Stage: Sendable {
        case awaitingM1
        case awaitingM3(SRPServer, transient: Bool)
        case awaitingM5(sessionKey: [UInt8])
        case ended
    }

    private let identity: PairingIdentity
    private let pin: String
    private let refusal: HAPErrorCode?
    private var stage = Stage.awaitingM1

    /// - Parameters:
    ///   - identity: the accessory's identifier and long-term key, sent in M6.
    ///   - pin: the PIN of PIN pairing; transient pairing uses `transientPIN`.
    ///   - refusal: when set, an M1 of PIN pairing is answered with this error and nothing else happens:
    ///     `.unavailable` when the accessory takes no more pairings, `.maxTries` after too many wrong
    ///     PINs (the owner counts failures whose reason is `.srp(.wrongProof)`), `.busy` while another
    ///     pairing is under way. Transient pairing is not refused: it adds no pairing, and its PIN is
    ///     public.
    public init(identity: PairingIdentity, pin: String, refusal: HAPErrorCode? = nil) {
        self.identity = identity
        self.pin = pin
        self.refusal = refusal
    }

    /// The answer to one request body, and where the exchange stands.
    public mutating func handle(_ requestBody: [UInt8]) -> (response: [UInt8], outcome: PairingOutcome) {
        let received = (try? TLV8.decode(requestBody)).flatMap(PairingMessage.state)
        do {
            return try step(requestBody)
        } catch {
            stage = .ended
            // The error answer takes the state after the one received (M2 for M1, …), or M2 when the
            // request said nothing readable.
            let answerState = received.map { $0 &+ 1 } ?? 2
            return (PairingMessage.error(state: answerState, error.code), .failed(error))
        }
    }

    private mutating func step(_ body: [UInt8]) throws(PairingFailure) -> (response: [UInt8], outcome: PairingOutcome) {
        let tlv = try PairingMessage.read(body, "pair-setup request")
        let state = PairingMessage.state(tlv)
        switch (stage, state) {
        case (.awaitingM1, 1):
            return try m1(tlv)
        case (.awaitingM3(let srp, let transient), 3):
            return try m3(tlv, srp, transient: transient)
        case (.awaitingM5(let sessionKey), 5):
            return try m5(tlv, sessionKey: sessionKey)
        default:
            throw PairingFailure("pair-setup", .unexpectedState(expected: expectedState, received: state))
        }
    }

    private var expectedState: UInt8? {
        switch stage {
        case .awaitingM1: return 1
        case .awaitingM3: return 3
        case .awaitingM5: return 5
        case .ended: return nil
        }
    }

    private mutating func m1(_ tlv: TLV8) throws(PairingFailure) -> ([UInt8], PairingOutcome) {
        let name = "pair-setup M1"
        let method = try PairingMessage.require(tlv, .method, name)
        guard method == [PairingMethod.pairSetup] else { throw PairingFailure(name, .invalidItem(.method, "is \(method), not pair-setup (0)")) }
        var transient = false
        if let flags = tlv[.flags] {
            guard let value = PairingMessage.integer(flags) else { throw PairingFailure(name, .invalidItem(.flags, "is over 4 bytes")) }
            transient = value & PairingFlags.transient != 0
        }
        if let refusal, !transient { throw PairingFailure(name, .refused(refusal)) }
        let password = transient ? Self.transientPIN : pin
        let srp = try PairingMessage.crypto(name) { try SRPServer(password: password) }
        stage = .awaitingM3(srp, transient: transient)
        let answer: TLV8 = [.state: [2], .salt: srp.salt, .publicKey: srp.publicKey]
        return (answer.encoded(), .continuing)
    }

    private mutating func m3(_ tlv: TLV8, _ srp: SRPServer, transient: Bool) throws(PairingFailure) -> ([UInt8], PairingOutcome) {
        let name = "pair-setup M3"
        let clientPublic = try PairingMessage.require(tlv, .publicKey, name)
        guard !clientPublic.isEmpty, clientPublic.count <= srp.group.width else {
            throw PairingFailure(name, .invalidItem(.publicKey, "has \(clientPublic.count) bytes (1 to \(srp.group.width))"))
        }
        let proof = try PairingMessage.require(tlv, .proof, count: SHA512.byteCount, name)
        let verified: (serverProof: [UInt8], sessionKey: [UInt8])
        do {
            verified = try srp.verify(clientPublicKey: clientPublic, clientProof: proof)
        } catch {
            throw PairingFailure(name, .srp(error))
        }
        let answer: TLV8 = [.state: [4], .proof: verified.serverProof]
        if transient {
            stage = .ended
            return (answer.encoded(), .finished(PairingResult(sharedSecret: verified.sessionKey, peer: nil)))
        }
        stage = .awaitingM5(sessionKey: verified.sessionKey)
        return (answer.encoded(), .continuing)
    }

    private mutating func m5(_ tlv: TLV8, sessionKey: [UInt8]) throws(PairingFailure) -> ([UInt8], PairingOutcome) {
        let name = "pair-setup M5"
        let keys = try PairingMessage.crypto(name) { try PairSetupKeys(sessionKey: sessionKey) }
        let sealed = try PairingMessage.require(tlv, .encryptedData, name)
        let inner = try PairingMessage.open(sealed, key: keys.encryption, nonce: "PS-Msg05", name)
        let controller = try PairSetupKeys.verifiedPeer(inner, x: keys.controllerSign, name)
        let identity = self.identity
        let reply = try PairingMessage.crypto("pair-setup M6") { try PairSetupKeys.signedIdentity(identity, x: keys.accessorySign) }
        let encrypted = try PairingMessage.seal(reply, key: keys.encryption, nonce: "PS-Msg06")
        stage = .ended
        let answer: TLV8 = [.state: [6], .encryptedData: encrypted]
        return (answer.encoded(), .finished(PairingResult(sharedSecret: sessionKey, peer: controller)))
    }
}
