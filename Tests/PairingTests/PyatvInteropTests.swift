import Cryptography
import Foundation
import Pairing
import TestSupport
import Testing

/// airlab's pairing against an implementation nobody here wrote: pyatv 0.18.0's HAP pieces (its
/// SRP through srptools, its HKDF, ChaCha20-Poly1305 and framing through `cryptography`), driven by
/// Resources/pyatv_peer.py. Each exchange ends with one HAP frame each way, sealed and opened by
/// pyatv's `HAPSession` on its side, so both ends derived the same session keys in the same directions.
@Suite(.serialized) struct PyatvInteropTests {
    /// What one side saw, for the test's own task to judge.
    struct Exchange: Sendable {
        var outcomes: [String] = []
        var openedFromPyatv: [UInt8] = []
        var pyatvOpened: [UInt8] = []
        var accessory: PairedPeer?
    }

    static let fromAirlab = Array("airlab to pyatv, over the HAP channel".utf8)

    /// One frame each way on `channel`: pyatv's first (it sends when its pairing ends), then airlab's.
    @available(*, noasync)
    static func frames(_ peer: PyatvPeer, _ channel: inout HAPChannel, _ exchange: inout Exchange) throws {
        exchange.openedFromPyatv = try channel.opener.open(try peer.receive("FRAME")).flatMap { $0 }
        try peer.send("OPENED " + exchange.openedFromPyatv.hex)
        try peer.send("FRAME " + (try channel.sealer.seal(fromAirlab)).hex)
        exchange.pyatvOpened = try peer.receive("OPENED")
    }

    @Test func pyatvsControllerPairsTransientlyWithAirlabsServerAndBothEndsShareTheControlKeys() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let exchange = try await BlockingWork.run { () throws -> Exchange in
            let peer = try PyatvPeer(mode: "client-transient", scratch: scratch)
            defer { peer.close() }
            var exchange = Exchange()
            var server = PairSetupServer(identity: try PairingFixtures.accessory(), pin: "1234")
            var result: PairingResult?
            // pyatv sends M1 and M3 (its procedure skips reading M4's proof); then its first frame.
            for _ in 0..<2 {
                let (response, outcome) = server.handle([UInt8](hex: try peer.receive()))
                exchange.outcomes.append("\(outcome)")
                result = outcome.result
                try peer.send(response.hex)
            }
            guard let result else { throw TestSupportError("pair-setup did not finish: \(exchange.outcomes)") }
            var channel = try result.controlChannel(as: .accessory)
            try Self.frames(peer, &channel, &exchange)
            return exchange
        }
        #expect(exchange.outcomes.count == 2 && exchange.outcomes[0] == "continuing", "\(exchange.outcomes)")
        #expect(exchange.openedFromPyatv == Array("pyatv controller to airlab accessory".utf8))
        #expect(exchange.pyatvOpened == Self.fromAirlab)
    }

    @Test func airlabsControllerPairsTransientlyWithPyatvsServer() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let exchange = try await BlockingWork.run { () throws -> Exchange in
            let peer = try PyatvPeer(mode: "server", scratch: scratch)
            defer { peer.close() }
            var exchange = Exchange()
            var client = try PairSetupClient(identity: try PairingFixtures.controller(), pin: PairSetupServer.transientPIN, transient: true)
            var request: [UInt8]? = client.start()
            var result: PairingResult?
            while let body = request {
                try peer.send("/pair-setup 4 " + body.hex)
                let answer = client.handle([UInt8](hex: try peer.receive()))
                exchange.outcomes.append("\(answer.outcome)")
                (request, result) = (answer.request, answer.outcome.result)
            }
            guard let result else { throw TestSupportError("pair-setup did not finish: \(exchange.outcomes)") }
            try peer.send("FRAMES")
            var channel = try result.controlChannel(as: .controller)
            try Self.frames(peer, &channel, &exchange)
            try peer.send("DONE")
            return exchange
        }
        #expect(exchange.outcomes.last?.hasPrefix("finished") == true, "\(exchange.outcomes)")
        #expect(exchange.openedFromPyatv == Array("pyatv accessory to airlab controller".utf8))
        #expect(exchange.pyatvOpened == Self.fromAirlab)
    }

    @Test func airlabsControllerPairsWithAPINThenVerifiesWithPyatvsServer() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let exchange = try await BlockingWork.run { () throws -> Exchange in
            let peer = try PyatvPeer(mode: "server", scratch: scratch)
            defer { peer.close() }
            var exchange = Exchange()
            let identity = try PairingFixtures.controller()
            // pyatv's fake accessory shows PIN 1111 (pyatv.auth.server_auth.PIN_CODE).
            var setup = try PairSetupClient(identity: identity, pin: "1111", transient: false)
            var request: [UInt8]? = setup.start()
            while let body = request {
                try peer.send("/pair-setup 3 " + body.hex)
                let answer = setup.handle([UInt8](hex: try peer.receive()))
                exchange.outcomes.append("\(answer.outcome)")
                (request, exchange.accessory) = (answer.request, answer.outcome.result?.peer)
            }
            guard let accessory = exchange.accessory else { throw TestSupportError("pair-setup did not finish: \(exchange.outcomes)") }
            var verify = try PairVerifyClient(identity: identity, accessory: accessory)
            request = verify.start()
            var result: PairingResult?
            while let body = request {
                try peer.send("/pair-verify 3 " + body.hex)
                let answer = verify.handle([UInt8](hex: try peer.receive()))
                exchange.outcomes.append("\(answer.outcome)")
                (request, result) = (answer.request, answer.outcome.result)
            }
            guard let result else { throw TestSupportError("pair-verify did not finish: \(exchange.outcomes)") }
            try peer.send("FRAMES")
            var channel = try result.controlChannel(as: .controller)
            try Self.frames(peer, &channel, &exchange)
            try peer.send("DONE")
            return exchange
        }
        // M6 carried pyatv's accessory identity, its signature checked by airlab's client; pair-verify's
        // M2 signature was checked against that key.
        let pyatvKey = try Ed25519PrivateKey(rawBytes: [UInt8](repeating: 0xaa, count: 32)).publicKey
        #expect(exchange.accessory == PairedPeer(identifier: "5D797FD3-3538-427E-A47B-A32FC6CF3A6A", publicKey: pyatvKey))
        #expect(exchange.outcomes.last?.hasPrefix("finished") == true, "\(exchange.outcomes)")
        #expect(exchange.openedFromPyatv == Array("pyatv accessory to airlab controller".utf8))
        #expect(exchange.pyatvOpened == Self.fromAirlab)
    }
}
