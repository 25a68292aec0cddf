import Cryptography
import Foundation
import Pairing
import TestSupport
import Testing

/// `airlab pair` against a real `airlabd` whose AirPlay 2 receiver has a fixed PIN: the receiver stores
/// airlab as a controller, airlab keeps the receiver's credential, and that credential verifies the
/// receiver on a later connection, which is then encrypted.
@Suite("airlab pair")
struct PairCommandTests {
    static func daemon(in scratch: Scratch) async throws -> DaemonProcess {
        try await DaemonProcess.start(
            ["--profile", "apple-tv-4k", "--port", "0", "--no-mdns", "--pin", "4821", "--state-dir", scratch.url.appendingPathComponent("state").path],
            in: scratch.url)
    }

    @Test("The right PIN pairs: the receiver lists airlab, the credential verifies the receiver on a new connection, which then speaks HAP frames")
    func pairsAndVerifies() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let daemon = try await Self.daemon(in: scratch)
        let port = try #require(daemon.receivers.first).port
        let credentials = scratch.url.appendingPathComponent("credentials").path
        let paired = try await BlockingWork.airlab(["pair", "--to", "127.0.0.1:\(port)", "--pin", "4821", "--credentials", credentials])
        #expect(paired.status == 0 && paired.stdout.hasPrefix("paired with receiver 127.0.0.1:\(port)"), "\(paired.stdout)\(paired.stderr)")

        let pairings = try SenderPairings(folder: URL(fileURLWithPath: credentials))
        let credential = try #require(try pairings.list().first)
        let stored = try String(contentsOf: scratch.url.appendingPathComponent("state/paired-controllers.json"), encoding: .utf8)
        #expect(stored.contains(pairings.identity.identifier))

        let listed = try await BlockingWork.airlab(["pair", "--list", "--credentials", credentials])
        #expect(listed.status == 0 && listed.stdout.hasPrefix(credential.receiver))

        // Pair-verify with what `airlab pair` kept, then one sealed request.
        let answer = try await BlockingWork.run { () throws -> String in
            let socket = try RawSocket(port: port)
            defer { socket.close() }
            var verify = try PairVerifyClient(identity: pairings.identity, accessory: try credential.accessory())
            var request: [UInt8]? = verify.start()
            var channel: HAPChannel?
            while let body = request, channel == nil {
                try socket.send(Data("POST /pair-verify HTTP/1.1\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + Data(body))
                guard let reply = HTTPReply.parse(socket.read { HTTPReply.parse($0) != nil }) else { throw TestSupportError("no answer to pair-verify") }
                let step = verify.handle([UInt8](reply.body))
                request = step.request
                switch step.outcome {
                case .finished(let result): channel = try result.controlChannel(as: .controller)
                case .failed(let failure): throw TestSupportError("pair-verify failed: \(failure)")
                case .continuing: break
                }
            }
            guard var channel else { throw TestSupportError("pair-verify ended without keys") }
            try socket.send(Data(try channel.sealer.seal(Array("GET /server-info HTTP/1.1\r\nContent-Length: 0\r\n\r\n".utf8))))
            let start = channel.opener
            var text: [UInt8] = []
            _ = socket.read { data in
                var opener = start
                text = (try? opener.open(Array(data)))?.flatMap { $0 } ?? []
                return HTTPReply.parse(Data(text)) != nil
            }
            return String(decoding: text, as: UTF8.self)
        }
        _ = await daemon.stop()
        #expect(answer.hasPrefix("HTTP/1.1 200 OK") && answer.contains("<key>deviceid</key>"), "\(answer)")

        let forgot = try await BlockingWork.airlab(["pair", "--forget", "--to", "127.0.0.1:\(port)", "--credentials", credentials])
        #expect(forgot.status == 2 || forgot.status == 0)
    }

    @Test("A wrong PIN is refused: exit 1 naming the authentication failure, nothing kept, a line in the receiver's log")
    func wrongPIN() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let daemon = try await Self.daemon(in: scratch)
        let port = try #require(daemon.receivers.first).port
        let credentials = scratch.url.appendingPathComponent("credentials").path
        let refused = try await BlockingWork.airlab(["pair", "--to", "127.0.0.1:\(port)", "--pin", "1111", "--credentials", credentials])
        _ = await daemon.stop()
        #expect(refused.status == 1 && refused.stderr.contains("did not pair:"), "\(refused.stderr)")
        #expect(try SenderPairings(folder: URL(fileURLWithPath: credentials)).list().isEmpty)
        #expect(daemon.stderr.contains("pair-setup from 127.0.0.1 failed"))
    }

    @Test("A malformed PIN is a usage error, exit 2")
    func malformedPIN() async throws {
        let result = try await BlockingWork.airlab(["pair", "--to", "127.0.0.1:9", "--pin", "12ab"])
        #expect(result.status == 2 && result.stderr.contains("--pin must be 4 to 8 digits, not '12ab'"), "\(result.stderr)")
    }

    @Test("The receiver's controllers are listed and removed by a paired admin on a verified connection, and by nobody else; a removed controller no longer verifies")
    func controllers() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let daemon = try await Self.daemon(in: scratch)
        defer { Task { await daemon.stop() } }
        let address = "127.0.0.1:\(try #require(daemon.receivers.first).port)"
        let first = scratch.url.appendingPathComponent("first").path, second = scratch.url.appendingPathComponent("second").path

        let stranger = try await BlockingWork.airlab(["pair", "--controllers", "--to", address, "--credentials", first])
        #expect(stranger.status == 2 && stranger.stderr.contains("pair with `airlab pair --pin` first"), "\(stranger.stderr)")
        for folder in [first, second] {
            let paired = try await BlockingWork.airlab(["pair", "--to", address, "--pin", "4821", "--credentials", folder])
            #expect(paired.status == 0, "\(paired.stderr)")
        }
        let firstID = try SenderPairings(folder: URL(fileURLWithPath: first)).identity.identifier
        let secondID = try SenderPairings(folder: URL(fileURLWithPath: second)).identity.identifier
        let listed = try await BlockingWork.airlab(["pair", "--controllers", "--to", address, "--credentials", first])
        #expect(listed.status == 0 && listed.stdout.contains("\(firstID)  admin") && listed.stdout.contains("\(secondID)  admin"), "\(listed.stdout)\(listed.stderr)")

        let removed = try await BlockingWork.airlab(["pair", "--remove-controller", secondID, "--to", address, "--credentials", first])
        #expect(removed.status == 0, "\(removed.stderr)")
        let after = try await BlockingWork.airlab(["pair", "--controllers", "--to", address, "--credentials", first])
        #expect(after.stdout.contains(firstID) && !after.stdout.contains(secondID))
        // The removed controller's credential no longer verifies the receiver.
        let refused = try await BlockingWork.airlab(["pair", "--controllers", "--to", address, "--credentials", second])
        #expect(refused.status == 2 && refused.stderr.contains("did not pair"), "\(refused.stderr)")
        let missing = try await BlockingWork.airlab(["pair", "--remove-controller", "nobody", "--to", address, "--credentials", first])
        #expect(missing.status == 2 && missing.stderr.contains("no controller 'nobody'"), "\(missing.stderr)")
        // Plain HTTP may not read them.
        let plain = try await BlockingWork.run { try CommandRunner.run(executableURL: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://\(address)/pairings"]) }
        #expect(plain.stdout == "403")
    }
}
