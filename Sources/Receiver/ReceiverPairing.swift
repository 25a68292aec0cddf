import Cryptography
import Foundation
import HTTP
import Pairing
import SenderProtocol
import Sessions
import Synchronization

/// An AirPlay 2 receiver's side of pairing (docs/pairing.md): its long-term identity (`pk`), the
/// controllers paired with a PIN, the exchanges under way on each connection, and the switch of a
/// connection to HAP frames once an exchange has given keys. Transient pairing (PIN 3939) encrypts the
/// connection at once; PIN pairing stores the controller, whose pair-verify then encrypts it.
final class ReceiverPairing: Sendable {
    /// Wrong PINs a peer may send before PIN pairing answers "max tries" for `lockout`.
    static let allowedFailures = 5
    static let lockout: Duration = .seconds(60)
    /// Exchanges one peer may start in `startWindow`, pair-setup and pair-verify together: each start
    /// costs the receiver a 3,072-bit modular power or a key agreement, so a peer that starts more is
    /// answered "busy" at once and its connection closed.
    static let allowedStarts = 10
    static let startWindow: Duration = .seconds(10)

    let identity: PairingIdentity
    /// The PIN a sender pairs with for good (`--pin`, or four random digits printed at start).
    let pin: String
    private let store: PairingStore

    private struct Exchange {
        var setup: PairSetupServer?
        var verify: PairVerifyServer?
    }

    private struct State {
        var exchanges: [HTTPConnectionID: Exchange] = [:]
        /// How each encrypted connection paired, for the cast's report.
        var pairings: [HTTPConnectionID: CastOrigin.Pairing] = [:]
        /// The controller pair-verify proved on each connection it encrypted.
        var verifiedControllers: [HTTPConnectionID: String] = [:]
        /// The keys of the event channel a SETUP on each encrypted connection opens.
        var eventChannels: [HTTPConnectionID: HAPChannel] = [:]
        /// Wrong PINs by peer, and when the peer may try again.
        var failures: [String: (count: Int, lockedUntil: ContinuousClock.Instant?)] = [:]
        /// When each peer started its recent exchanges, within `startWindow`.
        var starts: [String: [ContinuousClock.Instant]] = [:]
    }

    private let state = Mutex(State())

    /// - Parameters:
    ///   - folder: where the identity and the paired controllers are kept; nil keeps them in memory
    ///     for the process only (a fresh identity every start, no file written).
    init(deviceID: String, folder: URL?, pin: String?) throws {
        if let folder {
            identity = try DeviceIdentityFile.loadOrCreate(in: folder, identifier: deviceID)
            store = try PairingStore(folder: folder)
        } else {
            identity = PairingIdentity(identifier: deviceID, key: try Ed25519PrivateKey())
            store = PairingStore()
        }
        self.pin = pin ?? String(format: "%04d", Int.random(in: 0...9999))
    }

    var publicKey: [UInt8] { identity.key.publicKey.rawBytes }

    /// The controllers paired with a PIN.
    var controllers: [PairedController] { store.list() }

    /// How the connection paired, once it is encrypted; nil when it has not.
    func pairing(of connection: HTTPConnectionID) -> CastOrigin.Pairing? {
        state.withLock { $0.pairings[connection] }
    }

    /// The controller pair-verify proved on the connection; nil on one it did not encrypt.
    func verifiedController(of connection: HTTPConnectionID) -> String? {
        state.withLock { $0.verifiedControllers[connection] }
    }

    /// Forgets a controller paired by PIN; false when it was not paired. Its connections verified
    /// before stay open, as HAP leaves them.
    func removeController(_ identifier: String) throws(ProtocolError) -> Bool {
        do {
            return try store.remove(identifier)
        } catch {
            throw ProtocolError(status: 500, "the pairings cannot be written: \(error)")
        }
    }

    func connectionClosed(_ connection: HTTPConnectionID) {
        state.withLock { state in
            state.exchanges[connection] = nil
            state.pairings[connection] = nil
            state.verifiedControllers[connection] = nil
            state.eventChannels[connection] = nil
        }
    }

    /// The accessory's end of the event channel of the session paired on the connection.
    func eventChannel(of connection: HTTPConnectionID) -> HAPChannel? {
        state.withLock { $0.eventChannels[connection] }
    }

    /// `POST /pair-setup`: the answer, and the channel switched to HAP frames when a transient pairing
    /// has ended. `peer` names the sender for the count of wrong PINs.
    func pairSetup(_ body: [UInt8], on connection: HTTPConnectionID, channel: SecureChannel?, peer: String) -> (answer: [UInt8], log: String?, failed: Bool) {
        if Self.isFirstMessage(body), !admit(peer) { return (Self.busy, "pair-setup from \(peer) refused: too many pairings started", true) }
        let locked = state.withLock { state -> Bool in
            guard let until = state.failures[peer]?.lockedUntil else { return false }
            if until > .now { return true }
            state.failures[peer] = nil
            return false
        }
        let (answer, outcome) = state.withLock { state in
            // A message 1 starts a new exchange; anything else continues the one under way.
            var setup = state.exchanges[connection]?.setup
            if setup == nil || Self.isFirstMessage(body) {
                setup = PairSetupServer(identity: identity, pin: pin, refusal: locked ? .maxTries : nil)
            }
            let result = setup!.handle(body)
            state.exchanges[connection, default: Exchange()].setup = setup
            return result
        }
        switch outcome {
        case .continuing:
            return (answer, nil, false)
        case .failed(let failure):
            if case .srp(.wrongProof) = failure.reason { countFailure(of: peer) }
            return (answer, "pair-setup from \(peer) failed: \(failure)", true)
        case .finished(let result):
            if let peer = result.peer {
                do {
                    try store.add(PairedController(identifier: peer.identifier, publicKey: peer.publicKey, isAdmin: true))
                } catch {
                    return (answer, "pair-setup: the controller \(peer.identifier) cannot be stored: \(error)", true)
                }
                return (answer, "paired with controller \(peer.identifier) (PIN)", false)
            }
            let problem = encrypt(channel, connection: connection, with: result, as: .transient)
            return (answer, problem, problem != nil)
        }
    }

    /// `POST /pair-verify`: the answer, and the channel switched to HAP frames when it has ended.
    func pairVerify(_ body: [UInt8], on connection: HTTPConnectionID, channel: SecureChannel?, peer: String) -> (answer: [UInt8], log: String?, failed: Bool) {
        if Self.isFirstMessage(body), !admit(peer) { return (Self.busy, "pair-verify from \(peer) refused: too many pairings started", true) }
        let (answer, outcome) = state.withLock { state in
            var verify = state.exchanges[connection]?.verify
            if verify == nil || Self.isFirstMessage(body) {
                verify = PairVerifyServer(identity: identity) { [store] identifier in store.publicKey(for: identifier) }
            }
            let result = verify!.handle(body)
            state.exchanges[connection, default: Exchange()].verify = verify
            return result
        }
        switch outcome {
        case .continuing:
            return (answer, nil, false)
        case .failed(let failure):
            return (answer, "pair-verify failed: \(failure)", true)
        case .finished(let result):
            let problem = encrypt(channel, connection: connection, with: result, as: .verified)
            if problem == nil, let controller = result.peer?.identifier {
                state.withLock { $0.verifiedControllers[connection] = controller }
            }
            return (answer, problem, problem != nil)
        }
    }

    private func encrypt(_ channel: SecureChannel?, connection: HTTPConnectionID, with result: PairingResult, as pairing: CastOrigin.Pairing) -> String? {
        guard let channel else { return "a pairing ended on a connection that cannot be encrypted" }
        let events: HAPChannel
        do {
            channel.encrypt(with: HAPConnectionCipher(channel: try result.controlChannel(as: .accessory)))
            events = try result.eventChannel(as: .accessory)
        } catch {
            return "the pairing's keys cannot be derived: \(error)"
        }
        state.withLock { state in
            state.pairings[connection] = pairing
            state.eventChannels[connection] = events
        }
        return nil
    }

    /// Whether `peer` may start another exchange now; counts it when it may.
    private func admit(_ peer: String) -> Bool {
        state.withLock { state in
            let now = ContinuousClock.now
            var recent = (state.starts[peer] ?? []).filter { now - $0 < Self.startWindow }
            defer { state.starts[peer] = recent.isEmpty ? nil : recent }
            guard recent.count < Self.allowedStarts else { return false }
            recent.append(now)
            return true
        }
    }

    /// The answer to an exchange refused before any work: state 2 and HAP's "busy".
    static let busy = TLV8([.state: [2], .error: [HAPErrorCode.busy.rawValue]]).encoded()

    private func countFailure(of peer: String) {
        state.withLock { state in
            var entry = state.failures[peer] ?? (0, nil)
            entry.count += 1
            if entry.count >= Self.allowedFailures { entry = (0, .now + Self.lockout) }
            state.failures[peer] = entry
        }
    }

    /// Whether a TLV8 body says state 1 (its first item, as senders write it: type 6, length 1, 1).
    private static func isFirstMessage(_ body: [UInt8]) -> Bool {
        guard let tlv = try? TLV8.decode(body) else { return false }
        return tlv[.state] == [1]
    }
}

/// HAP's frames as the cipher of a relayed connection.
struct HAPConnectionCipher: ConnectionCipher {
    var channel: HAPChannel

    mutating func open(_ wire: [UInt8]) throws -> [UInt8] {
        try channel.opener.open(wire).flatMap { $0 }
    }

    mutating func seal(_ plaintext: [UInt8]) throws -> [UInt8] {
        try channel.sealer.seal(plaintext)
    }

    var pendingByteCount: Int { channel.opener.pendingByteCount }
}
