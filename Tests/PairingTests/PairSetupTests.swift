import Cryptography
import Pairing
import Testing

@Suite struct PairSetupTests {
    @Test func transientPairingEndsAtM4WithTheSameKeysOnBothEnds() throws {
        var server = PairSetupServer(identity: try PairingFixtures.accessory(), pin: "1234")
        var client = try PairSetupClient(identity: try PairingFixtures.controller(), pin: PairSetupServer.transientPIN, transient: true)
        let (clientOutcome, serverOutcome) = PairingFixtures.setup(&client, &server)
        let accessorySide = try #require(serverOutcome.result)
        let controllerSide = try #require(clientOutcome.result)
        #expect(accessorySide.peer == nil && controllerSide.peer == nil)
        #expect(accessorySide.sharedSecret == controllerSide.sharedSecret)
        #expect(try HAPChannel.controlKeys(sharedSecret: accessorySide.sharedSecret).controllerToAccessory.count == 32)

        var accessory = try accessorySide.controlChannel(as: .accessory)
        var controller = try controllerSide.controlChannel(as: .controller)
        #expect(try accessory.opener.open(try controller.sealer.seal(Array("GET /info".utf8))) == [Array("GET /info".utf8)])
        #expect(try controller.opener.open(try accessory.sealer.seal(Array("200 OK".utf8))) == [Array("200 OK".utf8)])
        // The event channel has keys of its own.
        var events = try accessorySide.eventChannel(as: .accessory)
        var eventReader = try controllerSide.eventChannel(as: .controller)
        #expect(try eventReader.opener.open(try events.sealer.seal([1, 2, 3])) == [[1, 2, 3]])
        #expect(throws: HAPFrameError.self) { try eventReader.opener.open(try accessory.sealer.seal([4])) }
    }

    @Test func pinPairingExchangesLongTermKeysThroughM6() throws {
        let accessoryIdentity = try PairingFixtures.accessory()
        let controllerIdentity = try PairingFixtures.controller()
        var server = PairSetupServer(identity: accessoryIdentity, pin: "1234")
        var client = try PairSetupClient(identity: controllerIdentity, pin: "1234", transient: false)
        let (clientOutcome, serverOutcome) = PairingFixtures.setup(&client, &server)
        let accessorySide = try #require(serverOutcome.result)
        let controllerSide = try #require(clientOutcome.result)
        #expect(accessorySide.peer == controllerIdentity.peer)
        #expect(controllerSide.peer == accessoryIdentity.peer)
        #expect(accessorySide.sharedSecret == controllerSide.sharedSecret)
    }

    @Test func aWrongPINFailsAtM4WithTheAuthenticationError() throws {
        var server = PairSetupServer(identity: try PairingFixtures.accessory(), pin: "1234")
        var client = try PairSetupClient(identity: try PairingFixtures.controller(), pin: "9999", transient: false)
        let m2 = server.handle(client.start())
        let m3 = try #require(client.handle(m2.response).request)
        let m4 = server.handle(m3)
        #expect(try TLV8.decode(m4.response) == [.state: [4], .error: [HAPErrorCode.authentication.rawValue]])
        let failure = try #require(m4.outcome.failure)
        #expect(failure.reason == .srp(.wrongProof))
        #expect("\(failure)" == "pair-setup M3: SRP client proof does not match (wrong PIN)")
        let clientEnd = client.handle(m4.response)
        #expect(clientEnd.request == nil)
        #expect(clientEnd.outcome.failure?.reason == .peerError(.authentication))
    }

    @Test func outOfOrderAndReplayedMessagesAreRefusedAndEndTheExchange() throws {
        var server = PairSetupServer(identity: try PairingFixtures.accessory(), pin: "1234")
        var client = try PairSetupClient(identity: try PairingFixtures.controller(), pin: "1234", transient: false)
        let m1 = client.start()
        // M3 before M1.
        let early = server.handle(TLV8([.state: [3], .publicKey: [1], .proof: [UInt8](repeating: 0, count: 64)]).encoded())
        #expect(early.outcome.failure?.reason == .unexpectedState(expected: 1, received: 3))
        #expect(try TLV8.decode(early.response)[.error] == [HAPErrorCode.unknown.rawValue])
        // A machine that failed takes nothing more, not even a proper M1.
        #expect(server.handle(m1).outcome.failure?.reason == .unexpectedState(expected: nil, received: 1))

        var fresh = PairSetupServer(identity: try PairingFixtures.accessory(), pin: "1234")
        #expect(fresh.handle(m1).outcome.failure == nil)
        let replayed = fresh.handle(m1)
        #expect(replayed.outcome.failure?.reason == .unexpectedState(expected: 3, received: 1))
        #expect(try TLV8.decode(replayed.response)[.state] == [2])
    }

    @Test func malformedRequestsAreAnsweredWithAnErrorNamingTheProblem() throws {
        var server = PairSetupServer(identity: try PairingFixtures.accessory(), pin: "1234")
        let garbage = server.handle([6, 1, 1, 0, 9])
        #expect(garbage.outcome.failure?.reason == .malformed(.truncatedItem(offset: 3, type: 0, declared: 9, available: 0)))
        #expect(try TLV8.decode(garbage.response)[.state] == [2])
        var noMethod = PairSetupServer(identity: try PairingFixtures.accessory(), pin: "1234")
        #expect(noMethod.handle([6, 1, 1]).outcome.failure?.reason == .missingItem(.method))
    }

    @Test func aRefusingAccessoryAnswersM1WithItsError() throws {
        var server = PairSetupServer(identity: try PairingFixtures.accessory(), pin: "1234", refusal: .unavailable)
        var client = try PairSetupClient(identity: try PairingFixtures.controller(), pin: "1234", transient: false)
        let answer = server.handle(client.start())
        #expect(try TLV8.decode(answer.response) == [.state: [2], .error: [HAPErrorCode.unavailable.rawValue]])
        #expect(answer.outcome.failure?.code == .unavailable)
        #expect(client.handle(answer.response).outcome.failure?.reason == .peerError(.unavailable))
        // Transient pairing adds no pairing, so the same accessory still takes it.
        var transientServer = PairSetupServer(identity: try PairingFixtures.accessory(), pin: "1234", refusal: .unavailable)
        var transientClient = try PairSetupClient(identity: try PairingFixtures.controller(), pin: PairSetupServer.transientPIN, transient: true)
        #expect(PairingFixtures.setup(&transientClient, &transientServer).server.result != nil)
    }
}
