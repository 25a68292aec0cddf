import Foundation
import HTTP
import OwnThreads
import Pairing
import Profiles
import SenderProtocol
import Sessions
import Synchronization
import Transport

/// A connection a sender keeps to one receiver for a session, on the path the receiver takes casts on.
///
/// On AirPlay 1 it is a plain kept connection: `/play` and the polls that follow share it, and closing
/// it stops the session. On AirPlay 2 it is what pyatv and iOS set up before `/play`: a TCP connection
/// relayed from a local port libcurl connects to (`SenderRelay`), paired on it (transient, or
/// pair-verify with a credential `airlab pair` stored), encrypted from then on, RTSP `SETUP` with the
/// event channel connected, and `RECORD`. libcurl speaks plain HTTP to the relay either way, so every
/// request is still the one HTTP client's.
public final class ReceiverConnection: Sendable {
    public let path: CastOrigin.Path
    /// How the connection was paired; `.none` on AirPlay 1.
    public let pairing: CastOrigin.Pairing
    let pool: ConnectionPool
    private let relay: SenderRelay?
    private let events: Mutex<HeldConnection?>
    private let sequence = Atomic(0)
    /// When the last heartbeat went out; nil before the first.
    private let heartbeatAt = Mutex<ContinuousClock.Instant?>(nil)
    /// How often an AirPlay 2 sender says it is still there (`POST /feedback`), as pyatv does.
    static let heartbeatInterval = Duration.seconds(2)

    /// A plain kept connection (AirPlay 1).
    init() {
        path = .airPlay1
        pairing = .none
        pool = ConnectionPool()
        relay = nil
        events = Mutex(nil)
    }

    private init(relay: SenderRelay, pairing: CastOrigin.Pairing) {
        path = .airPlay2
        self.pairing = pairing
        self.relay = relay
        pool = ConnectionPool(connectingTo: relay.localPort)
        events = Mutex(nil)
    }

    /// True, and noted, when an AirPlay 2 connection's heartbeat is due: at once, then every
    /// `heartbeatInterval`. Never on AirPlay 1, which has none.
    func heartbeatIsDue() -> Bool {
        guard path == .airPlay2 else { return false }
        let now = ContinuousClock.now
        return heartbeatAt.withLock { last in
            if let last, now - last < Self.heartbeatInterval { return false }
            last = now
            return true
        }
    }

    /// The next RTSP `CSeq`, which marks a request the relay sends as RTSP/1.0.
    func nextSequence() -> String {
        String(sequence.add(1, ordering: .relaxed).newValue)
    }

    /// The requests the receiver sent on the event channel so far, method and target (a tvOS
    /// receiver's `POST /command`, each acknowledged); empty on AirPlay 1.
    public var eventChannelRequests: [String] {
        events.withLock { $0 }?.receivedRequests ?? []
    }

    /// Closes the connection (a receiver ends an attached session with it) and the event channel.
    public func close() {
        pool.close()
        relay?.close()
        events.withLock { held in
            held?.close()
            held = nil
        }
    }

    deinit {
        close()
    }

    // MARK: - Opening an AirPlay 2 connection

    /// Connects, pairs and sets up an AirPlay 2 session's connection to `client`'s receiver.
    static func airPlay2(_ client: ReceiverClient, settingUp: Bool) async throws(ReceiverError) -> ReceiverConnection {
        let address = client.receiver.address
        let timeout = Duration.seconds(min(max(client.timeout, 0.001), 3_600))
        let port = Int(address.port)
        // Read before connecting: a relay, once connected, holds descriptors until it is closed.
        let credential = try await client.storedCredential()
        let relay: SenderRelay
        do throws(SenderRelay.Failure) {
            relay = try await BlockingCall.run { () throws(SenderRelay.Failure) -> SenderRelay in
                try SenderRelay.connect(host: address.host, port: port, timeout: timeout)
            }
        } catch {
            throw client.failure(.unreachable(error.description))
        }
        let connection = ReceiverConnection(relay: relay, pairing: credential == nil ? .transient : .verified)
        do throws(ReceiverError) {
            let result: PairingResult
            if let credential {
                result = try await client.verify(credential, on: connection)
            } else {
                result = try await client.pairTransiently(on: connection)
            }
            let events: HAPChannel
            do {
                relay.channel.encrypt(with: HAPConnectionCipher(channel: try result.controlChannel(as: .controller)))
                events = try result.eventChannel(as: .controller)
            } catch {
                throw client.failure(.pairingFailed("the pairing's keys cannot be derived: \(error)"))
            }
            guard settingUp else { return connection }
            let eventPort = try await client.setUp(on: connection)
            let held: HeldConnection
            do throws(SenderRelay.Failure) {
                held = try await BlockingCall.run { () throws(SenderRelay.Failure) -> HeldConnection in
                    try HeldConnection(host: address.host, port: eventPort, timeout: timeout, cipher: HAPConnectionCipher(channel: events))
                }
            } catch {
                throw client.failure(.connectionLost("the event channel on port \(eventPort): \(error)"))
            }
            connection.events.withLock { $0 = held }
            _ = try await client.exchange(.record, "/\(client.streamSession)", on: connection)
        } catch {
            connection.close()
            throw error
        }
        return connection
    }
}

extension ReceiverClient {
    /// `POST /feedback` (RTSP) when the connection's heartbeat is due: what an AirPlay 2 sender sends
    /// every 2 s while it stays with a session, so the receiver knows it is still there. A sender's
    /// polling loop calls this with each poll; a heartbeat that fails is the poll's to notice.
    public func keepAlive(_ connection: ReceiverConnection) async {
        guard connection.heartbeatIsDue() else { return }
        _ = try? await exchange(.post, Route.feedback.path(), body: nil, type: nil, rtsp: true, on: connection)
    }

    /// Opens the connection a session is cast and followed on, on the path `protocolChoice` and the
    /// receiver's record decide.
    ///
    /// - Parameter settingUp: false pairs an AirPlay 2 connection without `SETUP` and `RECORD`, for
    ///   commands to a session another connection started.
    public func connect(settingUp: Bool = true) async throws(ReceiverError) -> ReceiverConnection {
        switch path() {
        case .airPlay1: ReceiverConnection()
        case .airPlay2: try await ReceiverConnection.airPlay2(self, settingUp: settingUp)
        }
    }

    /// The path to take: the one asked for, else the one the receiver's record says (its TXT record, or
    /// the `/server-info` a command read with `identified()`), AirPlay 1 when its record is unknown.
    public func path() -> CastOrigin.Path {
        switch protocolChoice {
        case .airPlay1: .airPlay1
        case .airPlay2: .airPlay2
        case .automatic: receiver.path ?? .airPlay1
        }
    }

    /// The credential `airlab pair` stored for this receiver, when there are pairings to look in. A
    /// receiver given by address says its device ID in `/server-info`.
    func storedCredential() async throws(ReceiverError) -> SenderPairings.Credential? {
        guard let pairings else { return nil }
        var known = receiver.deviceID
        if known == nil { known = try? await serverInfo().deviceID }
        guard let deviceID = known else { return nil }
        do {
            return try pairings.credential(for: deviceID)
        } catch {
            throw failure(.pairingFailed("the stored credential cannot be read: \(error)"))
        }
    }

    /// The session's stream name in RTSP targets, as senders make one up per connection.
    var streamSession: String { "airlab" }

    /// Transient pair-setup (M1 to M4 with the fixed PIN): the SRP key becomes the session's secret.
    func pairTransiently(on connection: ReceiverConnection) async throws(ReceiverError) -> PairingResult {
        var client: PairSetupClient
        do {
            let identity = try pairings?.identity ?? PairingIdentity.ephemeral(identifier: "airlab")
            client = try PairSetupClient(identity: identity, pin: PairSetupServer.transientPIN, transient: true)
        } catch {
            throw failure(.pairingFailed("\(error)"))
        }
        return try await runPairing(.pairSetup, start: client.start(), hkp: "4", on: connection) { answer in client.handle(answer) }
    }

    /// Pair-verify against the receiver `airlab pair` stored: the X25519 secret becomes the session's.
    func verify(_ credential: SenderPairings.Credential, on connection: ReceiverConnection) async throws(ReceiverError) -> PairingResult {
        guard let pairings else { throw failure(.pairingFailed("no pairings to verify with")) }
        var client: PairVerifyClient
        do {
            client = try PairVerifyClient(identity: pairings.identity, accessory: try credential.accessory())
        } catch {
            throw failure(.pairingFailed("\(error)"))
        }
        return try await runPairing(.pairVerify, start: client.start(), hkp: "3", on: connection) { answer in client.handle(answer) }
    }

    /// RTSP `SETUP` for a cast by URL (no streams): the port of the receiver's event channel.
    func setUp(on connection: ReceiverConnection) async throws(ReceiverError) -> Int {
        var setup = StreamSetup(streamCount: 0)
        setup.sessionUUID = UUID().uuidString
        setup.deviceID = pairings?.identity.identifier ?? "airlab"
        setup.name = "airlab"
        let answer = try await exchange(.setup, "/\(streamSession)", body: setup.propertyList(), type: Self.binaryPlistType, on: connection)
        guard let port = StreamSetup.eventPort(inAnswer: answer.body), (1...65_535).contains(port) else {
            throw failure(.unreadableAnswer("the SETUP answer names no event port"))
        }
        return port
    }
}
