import Cryptography
import Foundation
import Pairing
import TestSupport
import Testing

@Suite struct PairVerifyTests {
    @Test func aControllerPairedWithAPINVerifiesAndBothEndsShareTheSessionKeys() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let accessoryIdentity = try PairingFixtures.accessory()
        let controllerIdentity = try PairingFixtures.controller()
        let store = try PairingStore(folder: scratch.url)

        var setupServer = PairSetupServer(identity: accessoryIdentity, pin: "2468")
        var setupClient = try PairSetupClient(identity: controllerIdentity, pin: "2468", transient: false)
        let setup = PairingFixtures.setup(&setupClient, &setupServer)
        let controller = try #require(setup.server.result?.peer)
        try store.add(PairedController(identifier: controller.identifier, publicKey: controller.publicKey, isAdmin: true))
        let accessory = try #require(setup.client.result?.peer)

        var server = PairVerifyServer(identity: accessoryIdentity) { store.publicKey(for: $0) }
        var client = try PairVerifyClient(identity: controllerIdentity, accessory: accessory)
        let verify = PairingFixtures.verify(&client, &server)
        let accessorySide = try #require(verify.server.result)
        let controllerSide = try #require(verify.client.result)
        #expect(accessorySide.sharedSecret == controllerSide.sharedSecret)
        #expect(accessorySide.peer == controllerIdentity.peer)

        var accessoryChannel = try accessorySide.controlChannel(as: .accessory)
        var controllerChannel = try controllerSide.controlChannel(as: .controller)
        #expect(try accessoryChannel.opener.open(try controllerChannel.sealer.seal([9, 8, 7])) == [[9, 8, 7]])
    }

    @Test func aControllerThatNeverPairedFailsAtM3WithTheAuthenticationError() throws {
        let accessoryIdentity = try PairingFixtures.accessory()
        var server = PairVerifyServer(identity: accessoryIdentity) { _ in nil }
        var client = try PairVerifyClient(identity: try PairingFixtures.controller(), accessory: accessoryIdentity.peer)
        let verify = PairingFixtures.verify(&client, &server)
        #expect(verify.server.failure?.reason == .unknownPeer("4D797FD3-3538-427E-A47B-A32FC6CF3A6A"))
        #expect(verify.client.failure?.reason == .peerError(.authentication))
    }

    @Test func aControllerSigningWithAnotherKeyFails() throws {
        let accessoryIdentity = try PairingFixtures.accessory()
        let controllerIdentity = try PairingFixtures.controller()
        let otherKey = try Ed25519PrivateKey().publicKey
        var server = PairVerifyServer(identity: accessoryIdentity) { _ in otherKey }
        var client = try PairVerifyClient(identity: controllerIdentity, accessory: accessoryIdentity.peer)
        #expect(PairingFixtures.verify(&client, &server).server.failure?.reason == .badSignature)
    }

    @Test func anAccessoryWithAnotherKeyIsRefusedByTheController() throws {
        let accessoryIdentity = try PairingFixtures.accessory()
        let impostor = PairingIdentity(identifier: accessoryIdentity.identifier, key: try Ed25519PrivateKey())
        var server = PairVerifyServer(identity: impostor) { _ in nil }
        var client = try PairVerifyClient(identity: try PairingFixtures.controller(), accessory: accessoryIdentity.peer)
        #expect(PairingFixtures.verify(&client, &server).client.failure?.reason == .badSignature)
    }

    @Test func anM1WithoutA32ByteKeyIsRefused() {
        var server = PairVerifyServer(identity: PairingIdentity(identifier: "x", key: try! Ed25519PrivateKey())) { _ in nil }
        let answer = server.handle(TLV8([.state: [1], .publicKey: [1, 2, 3]]).encoded())
        #expect(answer.outcome.failure?.reason == .invalidItem(.publicKey, "has 3 bytes, not 32"))
    }
}
