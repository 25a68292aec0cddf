import ChildProcess
import Foundation
import Lab
import TestSupport
import Testing

/// airlab's sender on the AirPlay 2 path: against a real `airlabd` (transient pairing, a stored
/// credential verified, the plain path on request), and against pyatv's own server-side pairing and
/// HAP framing (Resources/pyatv_receiver.py), which nobody here wrote.
@Suite("airlab casts over AirPlay 2")
struct AirPlay2CastTests {
    static func report(_ result: CommandResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)\(result.stderr)")
    }

    @Test("An Apple TV profile takes airlab's cast on the AirPlay 2 path: transient pairing, then a stored credential verified; --protocol 1 takes the plain path; commands pair for themselves")
    func castsToAirlabd() async throws {
        let media = try await LabStream.stage()
        defer { media.remove() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let daemon = try await DaemonProcess.start(
            ["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20", "--pin", "4821", "--state-dir", scratch.url.appendingPathComponent("state").path],
            in: scratch.url)
        defer { Task { await daemon.stop() } }
        let receiver = try #require(daemon.receivers.first)
        let credentials = scratch.url.appendingPathComponent("credentials").path
        let cast = ["cast", media.url.appendingPathComponent("show.m3u8").path, "--to", EndToEnd.address(receiver), "--json", "--credentials", credentials]

        // No credentials yet: the record says AirPlay 2, so airlab pairs transiently.
        let transient = try Self.report(try await BlockingWork.airlab(cast))
        let transientOrigin = try #require(transient["origin"] as? [String: Any])
        #expect(transientOrigin["path"] as? String == "airplay2")
        #expect(transientOrigin["pairing"] as? String == "transient")
        #expect(transientOrigin["body"] as? String == "plist")
        #expect((transient["totals"] as? [String: Any])?["interstitialsPlayed"] as? Int == 2)
        #expect(transient["endReason"] as? String == "the primary content played to its end")

        // The attached cast said it was there with an RTSP POST /feedback on its paired connection.
        let metrics = try await BlockingWork.run { try CommandRunner.run(executableURL: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "http://\(EndToEnd.address(receiver))/metrics"]) }
        #expect(metrics.stdout.split(separator: "\n").contains { $0.contains("route=\"/feedback\"") && $0.contains("status=\"200\"") }, "\(metrics.stdout.prefix(2000))")

        let plain = try Self.report(try await BlockingWork.airlab(cast + ["--protocol", "1"]))
        #expect((plain["origin"] as? [String: Any])?["path"] as? String == "airplay1")

        let paired = try await BlockingWork.airlab(["pair", "--to", EndToEnd.address(receiver), "--pin", "4821", "--credentials", credentials])
        #expect(paired.status == 0, "\(paired.stderr)")
        let verified = try Self.report(try await BlockingWork.airlab(cast))
        #expect((verified["origin"] as? [String: Any])?["pairing"] as? String == "verified")
        #expect((verified["totals"] as? [String: Any])?["interstitialsPlayed"] as? Int == 2)

        // A detached cast's connection closes once it started; a command pairs a connection of its own.
        // The primary plays 30 times over, so the session outlasts the commands however slow the machine.
        let long = try await LabStream.stage(repeats: 30)
        defer { long.remove() }
        let detached = try await BlockingWork.airlab(
            ["cast", long.url.appendingPathComponent("show.m3u8").path, "--to", EndToEnd.address(receiver), "--detach", "--protocol", "2"])
        #expect(detached.status == 0, "\(detached.stderr)")
        let paused = try await BlockingWork.airlab(["pause", "--to", EndToEnd.address(receiver), "--protocol", "2"])
        #expect(paused.status == 0, "\(paused.stderr)")
        let stopped = try await BlockingWork.airlab(["stop", "--to", EndToEnd.address(receiver), "--protocol", "2"])
        #expect(stopped.status == 0, "\(stopped.stderr)")
        let sessions = try await EndToEnd.sessions(receiver)
        #expect(sessions.last?.endReason == "stopped by the sender")

        let bad = try await BlockingWork.airlab(cast + ["--protocol", "3"])
        #expect(bad.status == 2 && bad.stderr.contains("--protocol must be 1 or 2, not '3'"))
    }

    @Test("The receiver's first event on the channel SETUP opened is its record (POST /command updateInfo), sealed with the session's event keys; the sender opens it and acknowledges it")
    func eventChannel() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let daemon = try await DaemonProcess.start(["--profile", "apple-tv-4k", "--port", "0"], in: scratch.url)
        defer { Task { await daemon.stop() } }
        let receiver = try #require(daemon.receivers.first)
        var client = ReceiverClient(Receiver(address: ReceiverAddress(host: "127.0.0.1", port: receiver.port)))
        client.protocolChoice = .airPlay2
        let connection = try await client.connect()
        defer { connection.close() }
        // The event arrives on its own connection, after SETUP's answer: polled for, bounded only as a guard.
        var requests: [String] = []
        for _ in 0..<1500 where requests.isEmpty {
            requests = connection.eventChannelRequests
            if requests.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(requests == ["POST /command"])
        _ = await daemon.stop()
        #expect(!daemon.stderr.contains("event channel"), "\(daemon.stderr)")
    }

    @Test("pyatv's server-side pairing accepts airlab's transient pairing and `airlab pair`; what follows arrives in HAP frames: SETUP, the event channel, RECORD, /play, /rate")
    func pyatvReceiverAcceptsAirlab() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources/pyatv_receiver.py")
        let log = scratch.url.appendingPathComponent("pyatv.log")
        let peer = try await BlockingWork.run {
            try ChildProcess([try RealSenders.tool("python").path, script.path, "1111"], standardOutput: .pipe, standardError: .file(log, append: false))
        }
        defer { Task { try? await BlockingWork.run { _ = peer.terminate() } } }
        let port = try await BlockingWork.run { peer.readLine() }
        let address = "127.0.0.1:\(try #require(port.flatMap { Int($0) }, "pyatv_receiver.py said no port: \(Self.text(of: log))"))"

        let cast = try await BlockingWork.airlab(["cast", "http://127.0.0.1:9/show.m3u8", "--to", address, "--detach", "--protocol", "2"])
        #expect(cast.status == 0, "\(cast.stderr) \(Self.text(of: log))")
        var lines: [String] = []
        while lines.count < 6, let line = try await BlockingWork.run({ peer.readLine() }) {
            lines.append(line)
        }
        // The event channel is a second connection: pyatv may accept it after RECORD has arrived.
        #expect(lines.filter { $0 != "EVENTS connected" } == [
            "ENCRYPTED after pair-setup (HKP 4)", "SETUP /airlab encrypted", "RECORD /airlab encrypted",
            "POST /play encrypted Content-Location=http://127.0.0.1:9/show.m3u8", "POST /rate?value=1 encrypted",
        ], "\(Self.text(of: log))")
        #expect(lines.contains("EVENTS connected"))

        let credentials = scratch.url.appendingPathComponent("credentials").path
        let paired = try await BlockingWork.airlab(["pair", "--to", address, "--pin", "1111", "--credentials", credentials])
        #expect(paired.status == 0 && paired.stdout.contains("(AA:BB:CC:DD:EE:01)"), "\(paired.stdout)\(paired.stderr) \(Self.text(of: log))")
        let seek = try await BlockingWork.airlab(["seek", "30", "--to", address, "--credentials", credentials])
        #expect(seek.status == 0, "\(seek.stderr)")
        // PIN pair-setup encrypts nothing; the command's connection is verified with what it left.
        let verified = try await BlockingWork.run { [peer.readLine(), peer.readLine()] }
        #expect(verified == ["ENCRYPTED after pair-verify", "POST /scrub?position=30 encrypted"], "\(Self.text(of: log))")
    }

    private static func text(of log: URL) -> String {
        String(String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self).suffix(2000))
    }
}
