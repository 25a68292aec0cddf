import Foundation
import Pairing
import SenderProtocol
import Transport

/// Pairing with an AirPlay 2 receiver from the sender's side (`airlab pair`): HomeKit pair-setup with
/// the PIN the receiver shows, every message on one kept connection (the receiver holds the exchange
/// per connection), and the receiver's credential stored for later casts.
extension ReceiverClient {
    /// Pairs with `pin` as the sender `pairings` holds, and stores the receiver's credential there
    /// under `deviceID` (its `deviceid`).
    public func pair(pin: String, as pairings: SenderPairings, deviceID: String) async throws(ReceiverError) -> SenderPairings.Credential {
        let connection = ConnectionPool()
        defer { connection.close() }
        _ = try await pairingExchange(.pairPinStart, body: [], hkp: "3", on: connection)
        var client: PairSetupClient
        do {
            client = try PairSetupClient(identity: pairings.identity, pin: pin, transient: false)
        } catch {
            throw failure(.pairingFailed("\(error)"))
        }
        var request: [UInt8]? = client.start()
        while let body = request {
            let answer = try await pairingExchange(.pairSetup, body: body, hkp: "3", on: connection)
            let step = client.handle(answer)
            switch step.outcome {
            case .continuing:
                request = step.request
            case .failed(let pairingFailure):
                throw failure(.pairingFailed(pairingFailure.description))
            case .finished(let result):
                guard let accessory = result.peer else { throw failure(.pairingFailed("pair-setup ended without the receiver's key")) }
                let credential = SenderPairings.Credential(receiver: deviceID, accessory: accessory, pairedAt: Date())
                do {
                    try pairings.store(credential)
                } catch {
                    throw failure(.pairingFailed("paired, but the credential cannot be stored: \(error)"))
                }
                return credential
            }
        }
        throw failure(.pairingFailed("pair-setup ended before the receiver sent its key"))
    }

    /// One pairing message: a TLV8 body posted on the kept connection, the answer's body.
    ///
    /// - Parameter hkp: `X-Apple-HKP`, as Apple's senders and pyatv send it: 3 for HomeKit pairing with
    ///   a PIN and pair-verify, 4 for transient pairing.
    func pairingExchange(_ route: Route, body: [UInt8], hkp: String, on connection: ConnectionPool) async throws(ReceiverError) -> [UInt8] {
        var request = request(.post, route.path(), wait: timeout)
        request.body = Data(body)
        request.headers.append(("Content-Type", "application/octet-stream"))
        request.headers.append(("X-Apple-HKP", hkp))
        request.pool = connection
        request.reusesConnection = true
        let result = await TransferLoop.shared.fetch(request)
        if let error = result.error {
            throw failure(Self.problem(error, during: "POST \(route.rawValue)"))
        }
        let answer = ReceiverAnswer(status: result.status ?? 0, headers: result.headers.map { ($0.name, $0.value) }, body: result.body ?? Data())
        try check(answer)
        return [UInt8](answer.body)
    }
}

/// The receiver's own list of the controllers paired with it by PIN, which HAP lets an admin
/// controller read and change on a connection it verified: airlab's, once `airlab pair` has run.
extension ReceiverClient {
    /// `GET /pairings` on a connection verified with the stored credential.
    public func pairedControllers() async throws(ReceiverError) -> [PairingList.Controller] {
        let connection = try await verifiedConnection()
        defer { connection.close() }
        let answer = try await exchange(.get, Route.pairings.path(), on: connection)
        do {
            return try WireJSON.decoder.decode(PairingList.self, from: answer.body).controllers
        } catch {
            throw failure(.unreadableAnswer("/pairings is not a list of controllers: \(error)"))
        }
    }

    /// `DELETE /pairings/ID` on a connection verified with the stored credential.
    public func removePairedController(_ identifier: String) async throws(ReceiverError) {
        let connection = try await verifiedConnection()
        defer { connection.close() }
        _ = try await exchange(.delete, PairingList.target(removing: identifier), on: connection)
    }

    private func verifiedConnection() async throws(ReceiverError) -> ReceiverConnection {
        guard try await storedCredential() != nil else {
            throw failure(.pairingFailed("airlab has no credential for it: pair with `airlab pair --pin` first"))
        }
        var client = self
        client.protocolChoice = .airPlay2
        return try await client.connect(settingUp: false)
    }
}
