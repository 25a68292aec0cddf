import Foundation
import Pairing
import SenderProtocol

/// Pairing with an AirPlay 2 receiver from the sender's side (`airlab pair`): HomeKit pair-setup with
/// the PIN the receiver shows, every message on one kept connection (the receiver holds the exchange
/// per connection), and the receiver's credential stored for later casts.
extension ReceiverClient {
    /// Pairs with `pin` as the sender `pairings` holds, and stores the receiver's credential there
    /// under `deviceID` (its `deviceid`).
    public func pair(pin: String, as pairings: SenderPairings, deviceID: String) async throws(ReceiverError) -> SenderPairings.Credential {
        let connection = ReceiverConnection()
        defer { connection.close() }
        _ = try await pairingExchange(.pairPinStart, body: [], hkp: "3", on: connection)
        var client: PairSetupClient
        do {
            client = try PairSetupClient(identity: pairings.identity, pin: pin, transient: false)
        } catch {
            throw failure(.pairingFailed("\(error)"))
        }
        let result = try await runPairing(.pairSetup, start: client.start(), hkp: "3", on: connection) { answer in client.handle(answer) }
        guard let accessory = result.peer else { throw failure(.pairingFailed("pair-setup ended without the receiver's key")) }
        let credential = SenderPairings.Credential(receiver: deviceID, accessory: accessory, pairedAt: Date())
        do {
            try pairings.store(credential)
        } catch {
            throw failure(.pairingFailed("paired, but the credential cannot be stored: \(error)"))
        }
        return credential
    }

    /// Posts one exchange's messages (pair-setup or pair-verify) on `connection` until it finishes,
    /// fails, or stops without a result.
    func runPairing(
        _ route: Route, start: [UInt8], hkp: String, on connection: ReceiverConnection,
        next: ([UInt8]) -> (request: [UInt8]?, outcome: PairingOutcome)
    ) async throws(ReceiverError) -> PairingResult {
        var request: [UInt8]? = start
        while let body = request {
            let step = next(try await pairingExchange(route, body: body, hkp: hkp, on: connection))
            switch step.outcome {
            case .continuing: request = step.request
            case .failed(let pairingFailure): throw failure(.pairingFailed(pairingFailure.description))
            case .finished(let result): return result
            }
        }
        throw failure(.pairingFailed("\(route.rawValue) ended before the receiver finished it"))
    }

    /// One pairing message: a TLV8 body posted on the kept connection (the receiver holds an exchange
    /// per connection), the answer's body.
    ///
    /// - Parameter hkp: `X-Apple-HKP`, as Apple's senders and pyatv send it: 3 for HomeKit pairing with
    ///   a PIN and pair-verify, 4 for transient pairing.
    func pairingExchange(_ route: Route, body: [UInt8], hkp: String, on connection: ReceiverConnection) async throws(ReceiverError) -> [UInt8] {
        let answer = try await exchange(
            .post, route.path(), body: Data(body), type: "application/octet-stream", headers: [("X-Apple-HKP", hkp)], on: connection)
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
