import Testing
@testable import Lab

@Suite("Receiver addresses and announcements")
struct AddressingTests {
    @Test("HOST:PORT and [IPv6]:PORT are addresses; names, bare IPv6 and bad ports are not")
    func parsing() {
        #expect(ReceiverAddress(parsing: "127.0.0.1:7000") == ReceiverAddress(host: "127.0.0.1", port: 7000))
        #expect(ReceiverAddress(parsing: "living-room.local:7001") == ReceiverAddress(host: "living-room.local", port: 7001))
        #expect(ReceiverAddress(parsing: "[::1]:7000") == ReceiverAddress(host: "::1", port: 7000))
        #expect(ReceiverAddress(parsing: "[::1]:7000")?.description == "[::1]:7000")
        for text in ["Living Room", "Apple TV 4K (3rd generation)", "::1:7000", "host:0", "host:70000", ":7000", "host:", "a b:7000"] {
            #expect(ReceiverAddress(parsing: text) == nil, "\(text)")
        }
        #expect(ReceiverAddress(host: "127.0.0.2", port: 1).isLoopback && ReceiverAddress(host: "::1", port: 1).isLoopback)
        #expect(!ReceiverAddress(host: "10.0.0.5", port: 1).isLoopback)
    }

    @Test("airlabd's listening lines give each receiver's name, profile and address, whatever the name holds")
    func announcements() {
        let line = #"airlabd: receiver "Lab "B" (apple-tv-4k)" profile apple-tv-4k listening on http://127.0.0.1:41234"#
        #expect(FleetAnnouncement.receiver(in: line)
            == Receiver(name: #"Lab "B" (apple-tv-4k)"#, address: ReceiverAddress(host: "127.0.0.1", port: 41234), profile: "apple-tv-4k"))
        #expect(FleetAnnouncement.receiver(in: "airlabd: ready") == nil)
        #expect(FleetAnnouncement.receiver(in: #"airlabd: receiver "x" profile p listening on http://[::1]:7000/"#)?.address
            == ReceiverAddress(host: "::1", port: 7000))
    }

    @Test("A receiver is named in messages by its name and address, or by its address alone")
    func labels() {
        #expect(Receiver(name: "Den", address: ReceiverAddress(host: "10.0.0.5", port: 7000)).label == #"receiver "Den" (10.0.0.5:7000)"#)
        #expect(Receiver(address: ReceiverAddress(host: "10.0.0.5", port: 7000)).label == "receiver 10.0.0.5:7000")
    }
}
