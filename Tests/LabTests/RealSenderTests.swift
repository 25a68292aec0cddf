import ChildProcess
import Foundation
@testable import Lab
import Sessions
import TestSupport
import Testing

/// Senders nobody here wrote, from PyPI (`scripts/sender-venv`), cast to a real `airlabd`: pyatv's
/// `play_url` and python-airplay, both on the AirPlay 1 path. Each session plays the ad-supported
/// stream's interstitials, and its report says how the cast arrived.
@Suite("Real senders cast to airlabd")
struct RealSenderTests {
    /// The TXT values pyatv is given by hand (`--service-properties`), as an AirPlay 1 receiver
    /// publishes them; the leading `;` is what pyatv 0.18 needs to read the list (PLATFORM-NOTES).
    static let airPlay1Record = ";features=0x211;model=AppleTV3,2;deviceid=02:00:00:00:00:01"
    /// An Apple TV's AirPlay 2 record (the apple-tv-4k profile's), with transient credentials: pyatv
    /// pairs (PIN 3939), encrypts the connection and speaks RTSP.
    static let airPlay2Record = ";features=0x4A7FDFD5,0xBC155FDE;model=AppleTV6,2;deviceid=02:00:00:00:00:02;flags=0x644"
    static let transientCredentials = "7472616e7369656e74:::"

    static func atvremote(port: UInt16, url: String, airPlay2: Bool) throws -> [String] {
        let tool = try RealSenders.tool("atvremote")
        let path = airPlay2 ? ["--airplay-credentials", transientCredentials, "--service-properties", airPlay2Record] : ["--service-properties", airPlay1Record]
        return [tool.path, "--manual", "--address", "127.0.0.1", "--port", String(port), "--protocol", "airplay", "--id", "airlab"] + path + ["play_url=\(url)"]
    }

    /// The stream with its two interstitials, served on 127.0.0.1, and one receiver of `profile`.
    func withReceiver(
        _ profile: String, repeats: Int = 1, _ body: (DaemonProcess.Receiver, String) async throws -> Void
    ) async throws {
        let media = try await AdSupportedStream.stage()
        defer { media.remove() }
        let playlist = try AdSupportedStream.writePlaylist(in: media, repeats: repeats)
        let folder = FolderServer(folder: media.url, address: "127.0.0.1")
        try folder.start()
        defer { folder.stop() }
        let daemon = try await EndToEnd.fleet([profile], timeScale: 8, in: media.url)
        do {
            let receiver = try #require(daemon.receivers.first)
            try await body(receiver, folder.url(for: media.url.appendingPathComponent(playlist)))
        } catch {
            _ = await daemon.stop()
            throw error
        }
        _ = await daemon.stop()
    }

    /// Runs a sender to its end (it returns when the cast has ended) with its output in `log`.
    func run(_ arguments: [String], log: URL) async throws -> Int32 {
        try await BlockingWork.run {
            let child = try ChildProcess(arguments, output: log)
            return child.waitUntilExit()
        }
    }

    /// The one session a receiver played, once it has ended.
    func endedSession(_ receiver: DaemonProcess.Receiver) async throws -> SessionReport {
        let client = ReceiverClient(Receiver(address: ReceiverAddress(host: "127.0.0.1", port: receiver.port)))
        for _ in 0..<1500 {
            let sessions = try await client.sessions()
            if let ended = sessions.first(where: { !$0.active }) { return try await client.report(ofSession: ended.id) }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestSupportError("no session of \(receiver.name) ended")
    }

    @Test("pyatv's play_url casts on the AirPlay 1 path: a binary plist from MediaControl/1.0, both interstitials played")
    func pyatvAirPlay1() async throws {
        try await withReceiver("apple-tv-4k") { receiver, url in
            let scratch = try Scratch()
            defer { scratch.remove() }
            let log = scratch.url.appendingPathComponent("atvremote.log")
            let arguments = try await BlockingWork.run { try Self.atvremote(port: receiver.port, url: url, airPlay2: false) }
            let status = try await run(arguments, log: log)
            #expect(status == 0, "atvremote: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            let report = try await endedSession(receiver)
            #expect(report.totals.interstitialsPlayed == 2 && report.endReason == "the primary content played to its end")
            let origin = try #require(report.origin)
            #expect(origin.path == .airPlay1 && origin.pairing == CastOrigin.Pairing.none && origin.body == .plist)
            #expect(origin.userAgent == "MediaControl/1.0" && origin.restrictions == nil)
        }
    }

    @Test("pyatv's play_url casts on the AirPlay 2 path: transient pairing, HAP frames, RTSP, the restriction words, both interstitials played")
    func pyatvAirPlay2() async throws {
        try await withReceiver("apple-tv-4k") { receiver, url in
            let scratch = try Scratch()
            defer { scratch.remove() }
            let log = scratch.url.appendingPathComponent("atvremote.log")
            let arguments = try await BlockingWork.run { try Self.atvremote(port: receiver.port, url: url, airPlay2: true) }
            let status = try await run(arguments, log: log)
            #expect(status == 0, "atvremote: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            let report = try await endedSession(receiver)
            #expect(report.totals.interstitialsPlayed == 2 && report.endReason == "the primary content played to its end")
            let origin = try #require(report.origin)
            #expect(origin.path == .airPlay2 && origin.pairing == .transient && origin.body == .plist)
            #expect(origin.userAgent == "AirPlay/550.10" && origin.restrictions == SenderRestrictions(playback: 0, reference: 3))
        }
    }

    @Test("pyatv's stop is closing its connection: killing it mid-cast ends the session, naming why, on either path", arguments: [false, true])
    func pyatvLeaves(airPlay2: Bool) async throws {
        try await withReceiver("apple-tv-4k", repeats: 30) { receiver, url in
            let scratch = try Scratch()
            defer { scratch.remove() }
            let log = scratch.url.appendingPathComponent("atvremote.log")
            let arguments = try await BlockingWork.run { try Self.atvremote(port: receiver.port, url: url, airPlay2: airPlay2) }
            let child = try ChildProcess(arguments, output: log)
            let client = ReceiverClient(Receiver(address: ReceiverAddress(host: "127.0.0.1", port: receiver.port)))
            var playing = false
            for _ in 0..<1500 where !playing {
                // Playing, not only loaded: on the AirPlay 2 path pyatv's /rate has come.
                let progress = try await client.progress()
                playing = (progress.duration ?? 0) > 0 && (progress.position ?? 0) > 0
                if !playing { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(playing, "atvremote: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            _ = try await BlockingWork.run { child.terminate(grace: 0) }
            let report = try await endedSession(receiver)
            #expect(report.endReason?.contains("closed") == true, "end reason: \(report.endReason ?? "none")")
            #expect(report.origin?.path == (airPlay2 ? .airPlay2 : .airPlay1))
        }
    }

    @Test("python-airplay 0.0.5 casts on the AirPlay 1 path with its text body and no Host or User-Agent")
    func pythonAirplay() async throws {
        try await withReceiver("smart-tv-high") { receiver, url in
            let scratch = try Scratch()
            defer { scratch.remove() }
            let log = scratch.url.appendingPathComponent("airplay.log")
            let airplay = try await BlockingWork.run { try RealSenders.tool("airplay") }
            let status = try await run([airplay.path, "--device", "127.0.0.1:\(receiver.port)", url], log: log)
            #expect(status == 0, "airplay: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            let report = try await endedSession(receiver)
            #expect(report.totals.interstitialsPlayed == 2 && report.endReason == "the primary content played to its end")
            let origin = try #require(report.origin)
            #expect(origin.path == .airPlay1 && origin.body == .parameters && origin.userAgent == nil)
        }
    }
}
