import Cryptography
import Pairing
import Testing

@Suite struct HAPFrameTests {
    static let key = [UInt8](repeating: 0x42, count: 32)

    @Test func framesReadBackWhateverPiecesTheyArriveIn() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let plaintext = (0..<Int.random(in: 0...5000, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var sealer = HAPFrameSealer(key: Self.key)
            // Two writes, so frames of both a split and a whole message follow each other.
            let sealed = try sealer.seal(plaintext) + sealer.seal([1, 2, 3])
            #expect(sealed.count == plaintext.count + 3 + ((plaintext.count + 1023) / 1024 + 1) * 18)
            var opener = HAPFrameOpener(key: Self.key)
            var frames: [[UInt8]] = []
            var start = 0
            while start < sealed.count {
                let end = min(sealed.count, start + Int.random(in: 1...1500, using: &generator))
                frames += try opener.open(Array(sealed[start..<end]))
                start = end
            }
            #expect(frames.allSatisfy { $0.count <= 1024 })
            #expect(frames.flatMap { $0 } == plaintext + [1, 2, 3])
            #expect(opener.pendingByteCount == 0)
        }
    }

    @Test func aPartialFrameWaitsForTheRest() throws {
        var sealer = HAPFrameSealer(key: Self.key)
        let sealed = try sealer.seal([5, 6, 7])
        var opener = HAPFrameOpener(key: Self.key)
        #expect(try opener.open(Array(sealed.prefix(1))).isEmpty)
        #expect(try opener.open(Array(sealed.dropFirst().dropLast())).isEmpty)
        #expect(opener.pendingByteCount == sealed.count - 1)
        #expect(try opener.open([sealed.last!]) == [[5, 6, 7]])
    }

    @Test func aLengthOver1024FailsAndTheOpenerStaysFailed() throws {
        var opener = HAPFrameOpener(key: Self.key)
        #expect(throws: HAPFrameError.oversizeFrame(frame: 0, length: 1025)) { try opener.open([0x01, 0x04]) }
        var sealer = HAPFrameSealer(key: Self.key)
        let good = try sealer.seal([1])
        #expect(throws: HAPFrameError.oversizeFrame(frame: 0, length: 1025)) { try opener.open(good) }
        #expect("\(HAPFrameError.oversizeFrame(frame: 0, length: 1025))" == "HAP frame 0 declares 1025 bytes, over the 1024-byte limit")
    }

    @Test func aBadTagFails() throws {
        var sealer = HAPFrameSealer(key: Self.key)
        var sealed = try sealer.seal([1, 2, 3, 4])
        sealed[sealed.count - 1] ^= 0x80
        var opener = HAPFrameOpener(key: Self.key)
        #expect(throws: HAPFrameError.self) { try opener.open(sealed) }
        #expect(opener.failure != nil)
        // A frame sealed with the other direction's key fails the same way.
        var wrongKey = HAPFrameSealer(key: [UInt8](repeating: 1, count: 32))
        var other = HAPFrameOpener(key: Self.key)
        #expect(throws: HAPFrameError.self) { try other.open(try wrongKey.seal([1])) }
    }

    @Test func aReplayedOrReorderedFrameFails() throws {
        var sealer = HAPFrameSealer(key: Self.key)
        let first = try sealer.seal([1])
        let second = try sealer.seal([2])
        var opener = HAPFrameOpener(key: Self.key)
        #expect(try opener.open(first) == [[1]])
        do {
            _ = try opener.open(first)
            Issue.record("a replayed frame opened")
        } catch {
            guard case .authenticationFailed(frame: 1, _) = error else {
                Issue.record("a replayed frame failed as \(error)")
                return
            }
        }
        var reordered = HAPFrameOpener(key: Self.key)
        #expect(throws: HAPFrameError.self) { try reordered.open(second + first) }
    }

    @Test func theControllerWritesWithControlWriteAndReadsEventsWithEventsWrite() throws {
        let secret = [UInt8](repeating: 3, count: 64)
        func key(_ salt: String, _ info: String) throws -> [UInt8] { try HKDF.sha512(secret: secret, salt: salt, info: info) }
        let control = try HAPChannel.controlKeys(sharedSecret: secret)
        #expect(control.controllerToAccessory == (try key("Control-Salt", "Control-Write-Encryption-Key")))
        #expect(control.accessoryToController == (try key("Control-Salt", "Control-Read-Encryption-Key")))
        let events = try HAPChannel.eventKeys(sharedSecret: secret)
        #expect(events.controllerToAccessory == (try key("Events-Salt", "Events-Read-Encryption-Key")))
        #expect(events.accessoryToController == (try key("Events-Salt", "Events-Write-Encryption-Key")))

        var controller = try HAPChannel.control(sharedSecret: secret, role: .controller)
        var accessoryReader = HAPFrameOpener(key: try key("Control-Salt", "Control-Write-Encryption-Key"))
        #expect(try accessoryReader.open(try controller.sealer.seal([1])) == [[1]])
        var accessory = try HAPChannel.events(sharedSecret: secret, role: .accessory)
        var controllerReader = HAPFrameOpener(key: try key("Events-Salt", "Events-Write-Encryption-Key"))
        #expect(try controllerReader.open(try accessory.sealer.seal([2])) == [[2]])
    }
}
