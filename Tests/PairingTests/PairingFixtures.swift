import Cryptography
import Pairing

/// Identities and drivers for exchanges between airlab's own controller and accessory.
enum PairingFixtures {
    static func accessory() throws -> PairingIdentity {
        PairingIdentity(identifier: "AA:BB:CC:DD:EE:FF", key: try Ed25519PrivateKey())
    }

    static func controller() throws -> PairingIdentity {
        PairingIdentity(identifier: "4D797FD3-3538-427E-A47B-A32FC6CF3A6A", key: try Ed25519PrivateKey())
    }

    /// Runs pair-setup to its end: the client's and server's last outcomes.
    static func setup(_ client: inout PairSetupClient, _ server: inout PairSetupServer) -> (client: PairingOutcome, server: PairingOutcome) {
        var request: [UInt8]? = client.start()
        var serverOutcome = PairingOutcome.continuing
        var clientOutcome = PairingOutcome.continuing
        while let body = request {
            let answer = server.handle(body)
            serverOutcome = answer.outcome
            (request, clientOutcome) = client.handle(answer.response)
        }
        return (clientOutcome, serverOutcome)
    }

    static func verify(_ client: inout PairVerifyClient, _ server: inout PairVerifyServer) -> (client: PairingOutcome, server: PairingOutcome) {
        var request: [UInt8]? = client.start()
        var serverOutcome = PairingOutcome.continuing
        var clientOutcome = PairingOutcome.continuing
        while let body = request {
            let answer = server.handle(body)
            serverOutcome = answer.outcome
            (request, clientOutcome) = client.handle(answer.response)
        }
        return (clientOutcome, serverOutcome)
    }
}

extension PairingOutcome {
    var result: PairingResult? {
        if case .finished(let result) = self { return result }
        return nil
    }

    var failure: PairingFailure? {
        if case .failed(let failure) = self { return failure }
        return nil
    }
}
