import Discovery
import Testing

@Suite("ServicePublisher without avahi")
struct ServicePublisherTests {
    @Test("a service avahi would refuse is rejected before publishing, naming the field")
    func invalidServicesAreRejected() throws {
        let publisher = try ServicePublisher()
        defer { publisher.stop() }
        let cases: [(AdvertisedService, String)] = [
            (AdvertisedService(name: "", port: 7000, txtRecord: []), "name is empty"),
            (AdvertisedService(name: String(repeating: "x", count: 64), port: 7000, txtRecord: []), "longer than 63 bytes"),
            (AdvertisedService(name: "TV", port: 0, txtRecord: []), "port"),
            (AdvertisedService(name: "TV", port: 7000, txtRecord: [("a=b", "c")]), "TXT key"),
            (AdvertisedService(name: "TV", port: 7000, txtRecord: [("k", String(repeating: "v", count: 254))]), "255 bytes"),
        ]
        for (service, reason) in cases {
            #expect {
                try publisher.publish(service)
            } throws: { error in
                guard case .invalidService(let message) = error as? DiscoveryError else { return false }
                return message.contains(reason)
            }
        }
        #expect(publisher.services.isEmpty)
    }

    @Test("services given before start() wait in order, unnamed, until avahi accepts them")
    func servicesBeforeStartArePending() throws {
        let publisher = try ServicePublisher()
        defer { publisher.stop() }
        let first = try publisher.publish(AdvertisedService(name: "A", port: 7000, txtRecord: [("vv", "2")]))
        let second = try publisher.publish(AdvertisedService(name: "B", port: 7001, txtRecord: []))
        #expect(publisher.state == .stopped)
        #expect(publisher.services.map(\.id) == [first, second])
        #expect(publisher.services.allSatisfy { $0.status == .pending && $0.publishedName == nil })
        publisher.withdraw(first)
        #expect(publisher.services.map(\.requestedName) == ["B"])
    }

    @Test("a stopped publisher refuses new services and cannot start again")
    func stoppedPublisherRefuses() throws {
        let publisher = try ServicePublisher()
        publisher.stop()
        #expect(throws: DiscoveryError.stopped) {
            try publisher.publish(AdvertisedService(name: "A", port: 7000, txtRecord: []))
        }
        #expect(throws: DiscoveryError.stopped) { try publisher.start() }
    }
}
