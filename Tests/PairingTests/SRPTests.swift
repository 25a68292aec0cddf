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

    /// A known answer from pyatv's SRP library (srptools 1.0.1, as pyatv 0.18.0 calls it) for fixed
    /// private values, salt and PIN 3939: every value of the exchange, so a change in how a number is
    /// padded or hashed shows here without pyatv installed.
    @Test func bothEndsMatchSrptoolsForFixedValues() throws {
        let salt = [UInt8](hex: "8d3c1a5b9e2f40718263a4b5c6d7e8f9")
        let server = try SRPServer(password: "3939", salt: salt, privateKey: Array(101...132))
        let client = try SRPClient(password: "3939", privateKey: Array(1...32))
        let serverPublic = [
            "41736eaf63bf427e2abe3fe0e8f38cc200ca5cc5724d703e3ed8001c45064fa5db4ece42e8e174c6b6e1c225fa9bb2a9",
            "f35b01bfdc7bbd6c74c9a393a20723d4c5d08877411783111f8ecd72276c23daf9441628a62da6545b3e9bccc1ea8db1",
            "fb9e60847a01d9d92833444db2c33d1192efa2a5e92ea1e59660e51c9c61d9188c1d1cf509ccb702074d3a21ce3db7c2",
            "c5c3a579c75972e103639c7b385cbcc6b8448bc1d90d36d8f0dedc2650ef26a0787c0405908bd4f324a7edbea64e4482",
            "d3e116cd1d57dfb466cedf2f6e46e7ef57e25cd6684b6b1447a2a1964bac73aeb20c54336f55cb21f46a68e184e21330",
            "8f2bddf4ae266ac2ac456e009e3fc3b602e89e6c8f0c1b4eab2609b7a5802a6c0128d44c6cd2c28200bdd3a121bad691",
            "6e5276496e716cc6be526c572520931079fa4b2e2eef340eda2a668a0e9fa9304f71a5b7736e846da0326a127f1e7d6d",
            "52ff688694b07c7b9ea2a6a1585c70283a322088327aefbef1cd675b795ddb369c6a8b4d1f0b70c2d41233c6fc8820e0",
        ].joined()
        let clientPublic = [
            "bc0e7cf5dc3babf67dcedbb3b140aacc6cac43f4336b43bbd5de48d6ea7c8eda66924e354255225bccad9debe21182e6",
            "bb050f3ff3e6cfbb62c229379968c70ca436ad649a0b051373184215eef046f6f1f2256838f958581f6c7b2b85fa4afe",
            "326a0e8a951d4489305331aff88a136fd8d108bcc95fceb7e557c889c828bd23fb0702f053e1ca6470fb3c76bce4843f",
            "c005c7ea675740f8550212656cfc8919d9db805a434a68229e0d9dfe43fc16dc680a5ce74b77cf374353b05759bc1da3",
            "a9dabde30a4209381c87ca83d9483abdf66b86f9b1cbda9ad82c62712b87ce6fb7069b8fc8df344261821a06d0dc5106",
            "af76d4245f3f7737a94dbc484b415555dc401842d3011204553ba9f611b02bc38de26eba1a76bf8350205a62c436ba1c",
            "3c7c69d59318bd107fd1c1f5d846b3142e85a5d49e522655e020ed1bfe1e186cf923bf328f0b9b4c6a8aa3266ed9125b",
            "b98d63827110713be7803122ee4603c54ea31863ce4b10aff31f9073cf63b94733b4f066e72d4ec35687047d5d0db160",
        ].joined()
        #expect(server.publicKey.hex == serverPublic)
        #expect(client.publicKey.hex == clientPublic)
        let response = try client.respond(salt: salt, serverPublicKey: server.publicKey)
        #expect(response.proof.hex == ["2352c2b723c189b2c970b529cff9961cc3d9989f9a89ed65a91b59f35cca78ad", "231dc9305e30513294fd875d2fe9df645d911a82f0c177b5529fa77653be4c2a"].joined())
        #expect(response.sessionKey.hex == ["3a84457ad9b8f665f7602e008c5c405faa8fedc77199447645a3fa3efae4ba3e", "6509662f6b9dda9410e2c3114718fae38d0deca35fc2eeb30a03f67ed9b3bd32"].joined())
        #expect(response.expectedServerProof.hex == ["9e973c25fdd25de578dcf03f730207d4f12ff1a8f485443b1162432b01a6b2b0", "ad422d46ba385afc8e8edb0bf4b5d64525a086582fa2ae03e2f199650ba9cf03"].joined())
        #expect(try server.verify(clientPublicKey: client.publicKey, clientProof: response.proof).serverProof == response.expectedServerProof)
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
