import Testing
@testable import SenderProtocol

@Suite("airlabd's ready lines")
struct ReadyAnnouncementTests {
    @Test("A receiver line reads back to its name, profile and HOST:PORT, whatever the name holds; IPv6 hosts are bracketed")
    func roundTrip() throws {
        let line = ReadyAnnouncement.receiverLine(name: #"Den "TV" profile x"#, profile: "smart-tv-low", host: "::1", port: 7001)
        #expect(line == #"airlabd: receiver "Den "TV" profile x" profile smart-tv-low listening on http://[::1]:7001"#)
        let read = try #require(ReadyAnnouncement.receiver(in: line))
        #expect(read.name == #"Den "TV" profile x"# && read.profile == "smart-tv-low" && read.authority == "[::1]:7001")
        #expect(ReadyAnnouncement.receiver(in: ReadyAnnouncement.ready) == nil)
        #expect(ReadyAnnouncement.receiver(in: "airlabd: mDNS is off (--no-mdns)") == nil)
    }

    @Test("The metrics line reads back to its HOST:PORT, and is never taken for a receiver line")
    func metricsLine() {
        let line = ReadyAnnouncement.metricsLine(host: "127.0.0.1", port: 9100)
        #expect(line == "airlabd: metrics for the process on http://127.0.0.1:9100/metrics")
        #expect(ReadyAnnouncement.metrics(in: line) == "127.0.0.1:9100")
        #expect(ReadyAnnouncement.metrics(in: ReadyAnnouncement.metricsLine(host: "::", port: 9100)) == "[::]:9100")
        #expect(ReadyAnnouncement.receiver(in: line) == nil)
        #expect(ReadyAnnouncement.metrics(in: ReadyAnnouncement.ready) == nil)
    }
}
