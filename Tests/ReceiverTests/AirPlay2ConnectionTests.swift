import Cryptography
import Foundation
import Pairing
import TestSupport
import Testing

/// The AirPlay 2 path of a real `airlabd` (an Apple TV 4K profile) under airlab's own pairing client:
/// a paired connection speaks HAP frames; wrong PINs, replayed, oversize and cut frames, and RTSP
/// before pairing each get their answer (or a closed connection) and a log line, and the daemon serves on.
@Suite("The AirPlay 2 connection")
struct AirPlay2ConnectionTests {
    /// One `airlabd` with an AirPlay 2 profile, its PIN fixed.
    static func daemon(in scratch: Scratch) async throws -> DaemonProcess {
        try await DaemonProcess.start(
            ["--profile", "apple-tv-4k", "--port", "0", "--no-mdns", "--pin", "2468", "--state-dir", scratch.url.appendingPathComponent("state").path],
            in: scratch.url)
    }

    /// A request and its whole answer on a plain connection.
    static func exchange(_ socket: RawSocket, _ method: String, _ path: String, body: [UInt8] = []) throws -> HTTPReply {
        try socket.send(Data("\(method) \(path) HTTP/1.1\r\nContent-Length: \(body.count)\r\nContent-Type: application/octet-stream\r\n\r\n".utf8) + Data(body))
        let data = socket.read { HTTPReply.parse($0) != nil }
        guard let reply = HTTPReply.parse(data) else { throw TestSupportError("no whole answer to \(method) \(path): \(String(decoding: data, as: UTF8.self))") }
        return reply
    }

    /// Transient pair-setup on `socket`; the controller's channel once it has ended.
    static func pairTransiently(_ socket: RawSocket) throws -> HAPChannel {
        let identity = PairingIdentity(identifier: "airlab-test", key: try Ed25519PrivateKey())
        var client = try PairSetupClient(identity: identity, pin: PairSetupServer.transientPIN, transient: true)
        _ = try exchange(socket, "POST", "/pair-pin-start")
        var request: [UInt8]? = client.start()
        while let body = request {
            let reply = try exchange(socket, "POST", "/pair-setup", body: body)
            let step = client.handle([UInt8](reply.body))
            request = step.request
            switch step.outcome {
            case .finished(let result): return try result.controlChannel(as: .controller)
            case .failed(let failure): throw TestSupportError("transient pairing failed: \(failure)")
            case .continuing: continue
            }
        }
        throw TestSupportError("transient pairing ended without keys")
    }

    /// Sends one request sealed, and opens the whole answer.
    static func sealedExchange(_ socket: RawSocket, _ channel: inout HAPChannel, _ request: String) throws -> String {
        try socket.send(Data(try channel.sealer.seal(Array(request.utf8))))
        var opened: (opener: HAPFrameOpener, text: [UInt8])?
        let start = channel.opener
        // Each read gives everything so far: open it all with the opener as it was before the answer.
        _ = socket.read { data in
            var opener = start
            guard let frames = try? opener.open(Array(data)) else { return true }
            let text = frames.flatMap { $0 }
            guard HTTPReply.parse(Data(text)) != nil else { return false }
            opened = (opener, text)
            return true
        }
        guard let opened else { throw TestSupportError("no whole sealed answer to \(request.prefix(40))") }
        channel.opener = opened.opener
        return String(decoding: opened.text, as: UTF8.self)
    }

    @Test("After transient pairing the connection speaks HAP frames: RTSP answered in RTSP with its CSeq, /playback-info in HTTP")
    func pairedConnection() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let daemon = try await Self.daemon(in: scratch)
        let port = try #require(daemon.receivers.first).port
        let answers = try await BlockingWork.run { () throws -> [String] in
            let socket = try RawSocket(port: port)
            defer { socket.close() }
            var channel = try Self.pairTransiently(socket)
            let setup = try Self.sealedExchange(socket, &channel, "SETUP rtsp://127.0.0.1/1 RTSP/1.0\r\nCSeq: 5\r\nContent-Length: 0\r\n\r\n")
            let info = try Self.sealedExchange(socket, &channel, "GET /playback-info HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
            return [setup, info]
        }
        _ = await daemon.stop()
        #expect(answers[0].hasPrefix("RTSP/1.0 200 OK\r\nCSeq: 5\r\n") && answers[0].contains("application/x-apple-binary-plist"), "\(answers[0])")
        #expect(answers[1].hasPrefix("HTTP/1.1 200 OK\r\n") && answers[1].contains("<key>rate</key>"), "\(answers[1])")
    }

    @Test("A wrong PIN gets the authentication error and a closed connection, with a log line; the daemon serves on")
    func wrongPIN() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let daemon = try await Self.daemon(in: scratch)
        let port = try #require(daemon.receivers.first).port
        let (error, closed) = try await BlockingWork.run { () throws -> ([UInt8]?, Bool) in
            let socket = try RawSocket(port: port)
            defer { socket.close() }
            let identity = PairingIdentity(identifier: "airlab-test", key: try Ed25519PrivateKey())
            var client = try PairSetupClient(identity: identity, pin: "1357", transient: false)
            var request: [UInt8]? = client.start()
            var last: HTTPReply?
            while let body = request {
                let reply = try Self.exchange(socket, "POST", "/pair-setup", body: body)
                last = reply
                let step = client.handle([UInt8](reply.body))
                request = step.request
                if case .failed = step.outcome { break }
            }
            let tlv = try last.map { try TLV8.decode([UInt8]($0.body)) }
            return (tlv?[.error], socket.peerClosed())
        }
        #expect(error == [HAPErrorCode.authentication.rawValue] && closed)
        let info = try await HTTPTestClient.send(port: port, "GET", "/server-info")
        _ = await daemon.stop()
        #expect(info.status == 200)
        #expect(daemon.stderr.contains("pair-setup from 127.0.0.1 failed"), "\(daemon.stderr)")
    }

    @Test("A replayed frame, an oversize frame and a frame cut short each close the connection, with a log line; the daemon serves on", arguments: ["replayed", "oversize", "cut"])
    func badFrames(kind: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let daemon = try await Self.daemon(in: scratch)
        let port = try #require(daemon.receivers.first).port
        let closed = try await BlockingWork.run { () throws -> Bool in
            let socket = try RawSocket(port: port, receiveTimeoutSeconds: 5)
            defer { socket.close() }
            var channel = try Self.pairTransiently(socket)
            let frame = try channel.sealer.seal(Array("POST /feedback RTSP/1.0\r\nCSeq: 1\r\n\r\n".utf8))
            switch kind {
            case "replayed":
                try socket.send(Data(frame))
                _ = socket.read { !$0.isEmpty }
                try socket.send(Data(frame))
            case "oversize":
                try socket.send(Data([0xFF, 0xFF] + [UInt8](repeating: 0, count: 64)))
            default:
                try socket.send(Data(frame.prefix(frame.count / 2)))
                socket.close()
                return true
            }
            return socket.peerClosed()
        }
        #expect(closed)
        let info = try await HTTPTestClient.send(port: port, "GET", "/server-info")
        if kind == "cut" {
            // The log line comes when the daemon reads the close, after the half frame.
            var logged = false
            for _ in 0..<500 where !logged {
                logged = daemon.stderr.contains("the connection from 127.0.0.1 closed in the middle of a frame")
                if !logged { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(logged, "\(daemon.stderr)")
        }
        _ = await daemon.stop()
        #expect(info.status == 200)
        if kind != "cut" {
            #expect(daemon.stderr.contains("closed the connection from 127.0.0.1"), "\(daemon.stderr)")
        }
    }

    @Test("A peer that starts pairing over and over is answered busy past ten starts in ten seconds, its connection closed, with a log line")
    func pairingStartsAreLimited() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let daemon = try await Self.daemon(in: scratch)
        let port = try #require(daemon.receivers.first).port
        let answers = try await BlockingWork.run { () throws -> [[UInt8]?] in
            // M1 of transient pair-setup, each on a connection of its own, as a flood would send it.
            let m1 = TLV8([.method: [0], .state: [1], .flags: [0x10]]).encoded()
            return try (0..<11).map { _ in
                let socket = try RawSocket(port: port)
                defer { socket.close() }
                let reply = try Self.exchange(socket, "POST", "/pair-setup", body: m1)
                return try TLV8.decode([UInt8](reply.body))[.error]
            }
        }
        _ = await daemon.stop()
        #expect(answers.prefix(10).allSatisfy { $0 == nil }, "\(answers)")
        #expect(answers.last == [HAPErrorCode.busy.rawValue])
        #expect(daemon.stderr.contains("pair-setup from 127.0.0.1 refused: too many pairings started"))
    }

    @Test("RTSP before pairing is refused with 403 naming what to do; OPTIONS lists the methods")
    func rtspBeforePairing() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let daemon = try await Self.daemon(in: scratch)
        let port = try #require(daemon.receivers.first).port
        let (setup, options) = try await BlockingWork.run { () throws -> (String, String) in
            let socket = try RawSocket(port: port)
            defer { socket.close() }
            // A connection that starts by pairing is relayed, and so speaks RTSP.
            _ = try Self.exchange(socket, "POST", "/pair-pin-start")
            try socket.send("SETUP rtsp://127.0.0.1/1 RTSP/1.0\r\nCSeq: 2\r\nContent-Length: 0\r\n\r\n")
            let setup = String(decoding: socket.read { HTTPReply.parse($0) != nil }, as: UTF8.self)
            try socket.send("OPTIONS * RTSP/1.0\r\nCSeq: 3\r\n\r\n")
            let options = String(decoding: socket.read { HTTPReply.parse($0) != nil }, as: UTF8.self)
            return (setup, options)
        }
        _ = await daemon.stop()
        #expect(setup.hasPrefix("RTSP/1.0 403 ") && setup.contains("CSeq: 2") && setup.contains("pair-setup"), "\(setup)")
        #expect(options.hasPrefix("RTSP/1.0 200 OK") && options.contains("Public: SETUP, RECORD"), "\(options)")
    }
}
