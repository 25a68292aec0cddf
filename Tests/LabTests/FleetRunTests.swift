import Casting
import Foundation
@testable import Lab
import Reports
import SenderProtocol
import TestSupport
import Testing

/// A lab run against fake receivers that misbehave in every way a fleet can.
@Suite("Fleet runs")
struct FleetRunTests {
    func order() -> PlayOrder {
        var order = PlayOrder(url: "http://127.0.0.1:1/show.m3u8")
        order.script = "at 3 seek 12"
        return order
    }

    @Test("Receivers that refuse, vanish or cannot be reached become failures naming them, and no finished result is lost")
    func failuresDoNotLoseResults() async throws {
        let playing = try FakeReceiver(name: "Living Room", profile: "apple-tv-4k", behaviour: .plays)
        let refusing = try FakeReceiver(name: "Kitchen", profile: "smart-tv-low", behaviour: .refuses(status: 422, message: "show.m3u8: no variant is decodable"))
        let vanishing = try FakeReceiver(name: "Attic", profile: "streaming-stick", behaviour: .vanishesAfterPlay)
        let dropping = try FakeReceiver(name: "Den", profile: "apple-tv-hd", behaviour: .dropsEventStreams)
        defer { [playing, refusing, vanishing, dropping].forEach { $0.stop() } }
        let gone = try ClosedPort()
        let unreachable = Receiver(name: "Garage", address: ReceiverAddress(host: "127.0.0.1", port: gone.port), profile: "soundbar")

        let receivers = [playing.receiver, refusing.receiver, vanishing.receiver, dropping.receiver, unreachable]
        let run = FleetRun(order: order(), playlist: "show.m3u8", seed: 7)
        let report = await run.run(on: receivers, url: { "http://127.0.0.1:9/\($0.name ?? "")/show.m3u8" })

        #expect(report.playlist == "show.m3u8" && report.seed == 7)
        #expect(report.sessions.map(\.profile) == ["apple-tv-4k", "apple-tv-hd"])
        #expect(report.sessions.allSatisfy { $0.totals.interstitialsPlayed == 1 })
        let failures = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.profile, $0.reason) })
        #expect(failures.keys.sorted() == ["smart-tv-low", "soundbar", "streaming-stick"])
        #expect(failures["smart-tv-low"]?.hasPrefix("receiver \"Kitchen\" (127.0.0.1:") == true)
        #expect(failures["smart-tv-low"]?.hasSuffix("cannot play the playlist: show.m3u8: no variant is decodable") == true)
        #expect(failures["streaming-stick"]?.contains("receiver \"Attic\"") == true)
        #expect(failures["streaming-stick"]?.contains("vanished mid-run") == true)
        #expect(failures["soundbar"]?.contains("receiver \"Garage\"") == true)
        #expect(failures["soundbar"]?.contains("cannot be reached") == true)
        #expect(LabVerdict(report, thresholds: LabThresholds()) == .errors)
        withExtendedLifetime(gone) {}
    }

    @Test("Every receiver gets the same detached order with the run's seed and script, at its own URL")
    func sameOrderForAll() async throws {
        let first = try FakeReceiver(name: "One", profile: "apple-tv-4k", behaviour: .plays)
        let second = try FakeReceiver(name: "Two", profile: "smart-tv-high", behaviour: .plays)
        defer { [first, second].forEach { $0.stop() } }
        let report = await FleetRun(order: order(), playlist: "show.m3u8", seed: 42)
            .run(on: [first.receiver, second.receiver], url: { "http://127.0.0.1:9/for-\($0.name ?? "")/show.m3u8" })
        #expect(report.failures.isEmpty)
        for fake in [first, second] {
            let body = try #require(fake.playBodies.first)
            let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            #expect(object["detached"] as? Bool == true)
            #expect(object["seed"] as? Int == 42)
            #expect(object["script"] as? String == "at 3 seek 12")
            #expect(object["url"] as? String == "http://127.0.0.1:9/for-\(fake.name)/show.m3u8")
        }
        // Each session's report was read once it ended.
        #expect(first.requests.contains { $0.hasPrefix("GET /sessions/") })
    }

    @Test("A fetch trace's file is named by the receiver's place in the fleet, zero-padded to the fleet's size, then its name in characters any file system takes")
    func fetchTraceFileNames() {
        let named = Receiver(name: "Smart TV, low end (SDR)", address: ReceiverAddress(host: "127.0.0.1", port: 7000))
        #expect(FleetRun.fetchTraceFileName(index: 6, of: 120, receiver: named) == "007-Smart-TV-low-end-SDR.json")
        let unnamed = Receiver(address: ReceiverAddress(host: "::1", port: 7001))
        #expect(FleetRun.fetchTraceFileName(index: 0, of: 1, receiver: unnamed) == "1-1-7001.json")
        let hostile = Receiver(name: "../../etc/passwd é", address: ReceiverAddress(host: "127.0.0.1", port: 7000))
        #expect(FleetRun.fetchTraceFileName(index: 1, of: 9, receiver: hostile) == "2-..-..-etc-passwd.json")
    }

    @Test("Two receivers of one profile keep a lane each, named after the receivers")
    func sameProfileTwice() async throws {
        let first = try FakeReceiver(name: "Left", profile: "apple-tv-4k", behaviour: .plays)
        let second = try FakeReceiver(name: "Right", profile: "apple-tv-4k", behaviour: .plays)
        defer { [first, second].forEach { $0.stop() } }
        let report = await FleetRun(order: order(), playlist: "show.m3u8", seed: 1)
            .run(on: [first.receiver, second.receiver], url: { _ in "http://127.0.0.1:9/show.m3u8" })
        #expect(report.sessions.map(\.profile) == ["apple-tv-4k @ Left", "apple-tv-4k @ Right"])
    }

    @Test("The progress of each receiver goes from connecting to its session to ended")
    func progressUpdates() async throws {
        let fake = try FakeReceiver(name: "One", profile: "apple-tv-4k", behaviour: .plays)
        defer { fake.stop() }
        let lines = Shared<[String]>([])
        let board = FleetBoard(receivers: [fake.receiver], interactive: false) { text in lines.update { $0.append(text) } }
        _ = await FleetRun(order: order(), playlist: "show.m3u8", seed: 1)
            .run(on: [fake.receiver], url: { _ in "http://127.0.0.1:9/show.m3u8" }, update: { board.update($0, $1) })
        let log = lines.current
        #expect(log.count == 2, "\(log)")
        #expect(log.first?.hasPrefix("One: session ") == true)
        #expect(log.last?.hasPrefix("One: ended (the primary content played to its end); 1 interstitial(s) played, last switch") == true)
    }
}

/// A value shared with closures that run on other threads.
final class Shared<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    var current: Value { lock.withLock { value } }

    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&value) } }
}

@Suite("Password-protected receivers")
struct PasswordTests {
    @Test("The right password answers the receiver's Digest challenge for the cast, its events and its report")
    func rightPassword() async throws {
        let fake = try FakeReceiver(name: "Den", profile: "apple-tv-4k", behaviour: .plays, password: "sésame")
        defer { fake.stop() }
        let report = await FleetRun(order: PlayOrder(url: "http://127.0.0.1:9/show.m3u8"), playlist: "show.m3u8", seed: 1, password: "sésame")
            .run(on: [fake.receiver], url: { _ in "http://127.0.0.1:9/show.m3u8" })
        #expect(report.failures.isEmpty, "\(report.failures) \(fake.requests)")
        #expect(report.sessions.count == 1)
    }

    @Test("No password, or a wrong one, is a line naming the receiver and what to do")
    func missingOrWrongPassword() async throws {
        let fake = try FakeReceiver(name: "Den", profile: "apple-tv-4k", behaviour: .plays, password: "sésame")
        defer { fake.stop() }
        for (given, expected) in [(nil, "requires a password (HTTP 401); give it with --password"), ("guess", "refused the password (HTTP 401)")] {
            let report = await FleetRun(order: PlayOrder(url: "http://127.0.0.1:9/show.m3u8"), playlist: "show.m3u8", seed: 1, password: given)
                .run(on: [fake.receiver], url: { _ in "http://127.0.0.1:9/show.m3u8" })
            #expect(report.failures.map(\.reason) == ["receiver \"Den\" (127.0.0.1:\(fake.server.port)): \(expected)"])
        }
        #expect(fake.sessions.isEmpty)
    }
}

/// The per-host bound, against fake receivers that hold their sessions until told to stop.
@Suite("Fleet runs on several hosts")
struct FleetRunHostsTests {
    @Test("At most the per-host limit of sessions play at once on one host, the others start as sessions end there, and every one is reported")
    func sessionsPerHost() async throws {
        let first = try FakeReceiver(name: "A1", profile: "apple-tv-4k", behaviour: .holds)
        let second = try FakeReceiver(name: "A2", profile: "smart-tv-high", behaviour: .holds)
        let elsewhere = try FakeReceiver(name: "B1", profile: "streaming-stick", behaviour: .holds, address: "127.0.0.2")
        defer { [first, second, elsewhere].forEach { $0.stop() } }
        var run = FleetRun(order: PlayOrder(url: "http://127.0.0.1:9/show.m3u8"), playlist: "show.m3u8", seed: 1)
        run.slots = HostSlots(limit: 1)
        let slots = run.slots
        let runTask = Task { [run] in await run.run(on: [first.receiver, second.receiver, elsewhere.receiver], url: { _ in "http://127.0.0.1:9/show.m3u8" }) }

        // Both hosts play at once; on 127.0.0.1 the second receiver waits its turn.
        try await until { first.sessions.count == 1 && elsewhere.sessions.count == 1 }
        try await until { await slots.queued("127.0.0.1") == 1 }
        #expect(second.playBodies.isEmpty)
        try await ReceiverClient(first.receiver).stop()
        try await until { second.sessions.count == 1 }
        #expect(first.sessions.allSatisfy { !$0.active })
        try await ReceiverClient(second.receiver).stop()
        try await ReceiverClient(elsewhere.receiver).stop()

        let report = await runTask.value
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(report.sessions.map(\.profile) == ["apple-tv-4k", "smart-tv-high", "streaming-stick"])
        #expect(await slots.holding("127.0.0.1") == 0)
        #expect(await slots.holding("127.0.0.2") == 0)
    }

    @Test("Receivers on several hosts that share a name are told apart by their addresses in lines and lanes")
    func sharedNames() {
        let receivers = [
            Receiver(name: "Apple TV 4K", address: ReceiverAddress(host: "10.0.0.5", port: 7000), profile: "apple-tv-4k"),
            Receiver(name: "Apple TV 4K", address: ReceiverAddress(host: "10.0.0.6", port: 7000), profile: "apple-tv-4k"),
            Receiver(name: "Kitchen", address: ReceiverAddress(host: "10.0.0.6", port: 7001), profile: "smart-tv-low"),
        ]
        #expect(FleetRun.displayNames(of: receivers) == ["Apple TV 4K (10.0.0.5:7000)", "Apple TV 4K (10.0.0.6:7000)", "Kitchen"])
    }
}
