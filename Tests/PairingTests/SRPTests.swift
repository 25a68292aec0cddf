import Cryptography
@testable import Pairing
import Testing

@Suite struct SRPTests {
    @Test func clientAndServerAgreeOnTheSessionKeyAndProofs() throws {
        let server = try SRPServer(password: "3939")
        let client = try SRPClient(password: "3939")
        #expect(server.salt.count == 16 && server.salt[0] != 0)
        let response = try client.respond(salt: server.salt, serverPublicKey: server.publicKey)
        let verified = try server.verify(clientPublicKey: client.publicKey, clientProof: response.proof)
        #expect(verified.sessionKey == response.sessionKey)
        #expect(verified.sessionKey.count == 64)
        #expect(verified.serverProof == response.expectedServerProof)
    }

    @Test func aWrongPINFailsTheClientsProof() throws {
        let server = try SRPServer(password: "1111")
        let client = try SRPClient(password: "1112")
        let response = try client.respond(salt: server.salt, serverPublicKey: server.publicKey)
        #expect(throws: SRPError.wrongProof) { try server.verify(clientPublicKey: client.publicKey, clientProof: response.proof) }
    }

    @Test func aPublicKeyThatIsZeroModuloNIsRefused() throws {
        let server = try SRPServer(password: "3939")
        let client = try SRPClient(password: "3939")
        let prime = try SRPGroup.rfc5054Group3072().prime
        let twiceN = try prime.adding(prime).bytes
        for zero in [[0], prime.bytes, twiceN] as [[UInt8]] {
            #expect(throws: SRPError.invalidPublicKey("client")) {
                try server.verify(clientPublicKey: zero, clientProof: [UInt8](repeating: 0, count: 64))
            }
            #expect(throws: SRPError.invalidPublicKey("server")) { try client.respond(salt: server.salt, serverPublicKey: zero) }
        }
    }
}
