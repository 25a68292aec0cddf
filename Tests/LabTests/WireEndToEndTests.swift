import Foundation
@testable import Lab
import SenderProtocol
import TestSupport
import Testing

/// What the real `airlabd` writes, the sender's client reads as the same wire types: every answer and
/// every event of a session decodes, and every kind and state in it is one the sender knows.
@Suite("The sender reads every wire message of the real receiver")
struct WireEndToEndTests {
    @Test("server-info, the /play answer, the session list, every event and the report decode on the sender's side")
    func everyMessageDecodes() async throws {
        let media = try await LabStream.stage()
        defer { media.remove() }
        let fleet = try await EndToEnd.fleet(["apple-tv-4k"], timeScale: 20, in: media.url)
        defer { Task { await fleet.stop() } }
        let daemon = try #require(fleet.receivers.first)
        let folder = FolderServer(folder: media.url, address: "127.0.0.1")
        try folder.start()
        defer { folder.stop() }
        let client = ReceiverClient(Receiver(address: ReceiverAddress(host: "127.0.0.1", port: daemon.port)))

        let info = try await client.serverInfo()
        // An Apple TV 4K publishes the record of an AirPlay 2 device (pyatv issue 1360's AppleTV6,2).
        #expect(info.name == daemon.name && info.profile == "apple-tv-4k" && info.features == 0xBC15_5FDE_4A7F_DFD5)
        #expect(info.protocolVersion == "1.1" && info.sourceVersion == "566.25.43" && info.deviceID?.count == 17)
        let record = try await HTTPTestClient.send(port: daemon.port, "GET", "/info")
        #expect(record.headers["content-type"] == "application/x-apple-binary-plist" && record.body.starts(with: Array("bplist00".utf8)))
        let device = try #require(DeviceInfo(propertyList: record.body))
        #expect(device.features == info.features && device.statusFlags == 0x644 && device.deviceID == info.deviceID)
        #expect(device.pairingID?.count == 36 && device.osVersion == "15.0")

        let feed = try await client.subscribe()
        let events = feed.events
        var order = PlayOrder(url: folder.url(for: media.url.appendingPathComponent("show.m3u8")))
        order.detached = true
        order.seed = 7
        let started = try await client.play(order)
        #expect(started.profile == "apple-tv-4k" && started.receiver == daemon.name)

        var seen: [SessionEvent] = []
        for try await event in events {
            seen.append(event)
            if event.session == started.sessionID && event.knownKind == .ended { break }
        }
        feed.close()
        #expect(seen.first?.knownKind == .stateChanged, "the greeting comes first")
        #expect(seen.allSatisfy { $0.knownKind != nil && $0.event != nil }, "\(seen.map(\.json))")
        #expect(seen.contains { $0.knownKind == .interstitialStarted && $0.event?.eventID != nil })

        let sessions = try await client.sessions()
        let summary = try #require(sessions.last)
        #expect(summary.id == started.sessionID && !summary.active && summary.state?.known == .ended && summary.startedAt != nil)
        let report = try await client.report(ofSession: started.sessionID)
        #expect(report.seed == 7 && report.profile == "apple-tv-4k" && report.totals.interstitialsPlayed == 2)
        #expect(report.events.count == seen.filter { $0.session == started.sessionID }.count)
    }
}
