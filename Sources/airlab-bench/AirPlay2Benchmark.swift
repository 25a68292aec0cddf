import Foundation
import Lab
import SenderProtocol

/// What the AirPlay 2 path costs a sender against AirPlay 1, both from airlab's own sender to the
/// release `airlabd` (an Apple TV profile, which takes either) on 127.0.0.1, in the same run:
/// - connect to first frame: from opening the connection to the first `/playback-info` that says the
///   session plays (AirPlay 2 adds transient pairing, `SETUP`, the event channel, `RECORD` and
///   `/rate`; both load and probe the same playlist);
/// - `/playback-info` one after another on one kept connection, HAP-framed through the sender's
///   relay and the receiver's against plain.
///
/// Rounds alternate the paths, so both meet the same drift of a shared machine; medians are printed.
struct AirPlay2Benchmark: Benchmark {
    let name = "airplay2"
    // airlabd answers more than ten pairings from one address in ten seconds "busy": nine in all here.
    private static let castRounds = 6
    private static let pollRounds = 3
    private static let pollsPerRound = 2000
    private static let streamMinutes = 10

    private var folder = URL(fileURLWithPath: "/")
    private var nginx: ServerProcess?
    private var airlabd: ServerProcess?
    private var receiver = Receiver(address: ReceiverAddress(host: "127.0.0.1", port: 1))
    private var stream = ""

    mutating func setUp(_ context: BenchmarkContext) throws {
        folder = context.workDirectory.appendingPathComponent("airplay2")
        let media = folder.appendingPathComponent("site/media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        _ = try BenchmarkMedia.segment(in: media, context)
        try BenchmarkMedia.playlist(repeating: "segment.ts", count: Self.streamMinutes * 60 / 6)
            .write(to: media.appendingPathComponent("show.m3u8"), atomically: true, encoding: .utf8)
        let (nginx, nginxPort) = try StaticSite.serve(folder.appendingPathComponent("site"), from: folder)
        self.nginx = nginx
        stream = "http://127.0.0.1:\(nginxPort)/media/show.m3u8"

        let airlabd = try ServerProcess(
            "airlabd", executable: try BenchmarkContext.product("airlabd"),
            ["--profile", "apple-tv-4k", "--address", "127.0.0.1", "--port", "0", "--no-mdns"], logsIn: folder)
        self.airlabd = airlabd
        try airlabd.wait(upTo: 20, for: "its ready line") { airlabd.stdout.contains("airlabd: ready\n") }
        guard let line = airlabd.stdout.split(separator: "\n").first(where: { $0.contains(" listening on http://127.0.0.1:") }),
              let port = line.split(separator: ":").last.flatMap({ UInt16($0) })
        else {
            throw BenchmarkError("airlabd announced no receiver:\n\(airlabd.stdout)")
        }
        receiver = Receiver(address: ReceiverAddress(host: "127.0.0.1", port: port))
    }

    mutating func run(_ context: BenchmarkContext) throws -> [String] {
        let receiver = receiver, stream = stream
        var firstFrame: [ReceiverClient.ProtocolChoice: [Double]] = [:]
        for round in 0..<Self.castRounds {
            for choice in round % 2 == 0 ? [ReceiverClient.ProtocolChoice.airPlay1, .airPlay2] : [.airPlay2, .airPlay1] {
                firstFrame[choice, default: []].append(try BenchmarkContext.wait { try await Self.firstFrame(receiver, choice, stream) })
            }
        }
        // One session plays throughout the polls; each path reads it on a connection of its own.
        try BenchmarkContext.wait {
            var order = PlayOrder(url: stream)
            order.detached = true
            _ = try await ReceiverClient(receiver).play(order)
        }
        var perSecond: [ReceiverClient.ProtocolChoice: [Double]] = [:]
        for _ in 0..<Self.pollRounds {
            for choice in [ReceiverClient.ProtocolChoice.airPlay1, .airPlay2] {
                perSecond[choice, default: []].append(try BenchmarkContext.wait { try await Self.pollRate(receiver, choice) })
            }
        }
        _ = try? BenchmarkContext.wait { try await ReceiverClient(receiver).stop() }

        let median = { (values: [Double]?) in WrkReport.median(values ?? [0]) }
        let (plainStart, pairedStart) = (median(firstFrame[.airPlay1]), median(firstFrame[.airPlay2]))
        let (plainRate, pairedRate) = (median(perSecond[.airPlay1]), median(perSecond[.airPlay2]))
        let lines = [
            String(format: "connect to first frame, median of %d: AirPlay 2 %.1f ms, AirPlay 1 %.1f ms (%.2fx)",
                   Self.castRounds, pairedStart * 1000, plainStart * 1000, pairedStart / plainStart),
            String(format: "/playback-info on one kept connection, median of %d rounds of %d: HAP %.0f req/s, plain %.0f req/s (%.2fx)",
                   Self.pollRounds, Self.pollsPerRound, pairedRate, plainRate, pairedRate / plainRate),
        ]
        lines.forEach { print($0) }
        return lines
    }

    mutating func tearDown(_ context: BenchmarkContext) {
        airlabd?.stop()
        nginx?.stop()
        airlabd = nil
        nginx = nil
    }

    // MARK: - Steps

    /// Seconds from opening the connection to the first `/playback-info` that says the session plays.
    private static func firstFrame(_ receiver: Receiver, _ choice: ReceiverClient.ProtocolChoice, _ stream: String) async throws -> Double {
        var client = ReceiverClient(receiver)
        client.protocolChoice = choice
        let start = ContinuousClock.now
        let connection = try await client.connect()
        defer { connection.close() }
        _ = try await client.play(PlayOrder(url: stream), on: connection)
        while true {
            let info = try await client.playbackInfo(on: connection)
            if info.readyToPlay, info.rate > 0 { break }
        }
        let elapsed = ContinuousClock.now - start
        try await client.stop(on: connection)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// `/playback-info` answers a second, one request after another on one kept connection.
    private static func pollRate(_ receiver: Receiver, _ choice: ReceiverClient.ProtocolChoice) async throws -> Double {
        var client = ReceiverClient(receiver)
        client.protocolChoice = choice
        let connection = try await client.connect(settingUp: false)
        defer { connection.close() }
        _ = try await client.playbackInfo(on: connection)
        let start = ContinuousClock.now
        for _ in 0..<pollsPerRound {
            _ = try await client.playbackInfo(on: connection)
        }
        let elapsed = ContinuousClock.now - start
        return Double(pollsPerRound) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
