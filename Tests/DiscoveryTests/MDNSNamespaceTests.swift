import Discovery
import Foundation
import Testing

/// Three receivers, as `airlabd --profile … --profile … --profile …` would advertise them.
private let fleet: [AdvertisedService] = [
    ("Living Room", 7000, "apple-tv-4k", "AppleTV11,1"),
    ("Kitchen", 7001, "smart-tv-low", "airlab-tv-low"),
    ("Bedroom", 7002, "streaming-stick", "airlab-stick"),
].enumerated().map { index, receiver in
    AdvertisedService(name: receiver.0, port: receiver.1, txtRecord: [
        ("deviceid", "02:A1:7B:00:00:0\(index + 1)"),
        ("features", "0x5a7ffff7"),
        ("flags", "0x4"),
        ("model", receiver.3),
        ("srcvers", "220.68"),
        ("vv", "2"),
        ("airlab.profile", receiver.2),
    ])
}

private func expectedTXT(_ service: AdvertisedService) -> [String: String] {
    Dictionary(service.txtRecord.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
}

/// Polls the publisher's state (bounded: 5 s) until `accept` holds.
private func waitForState(
    _ publisher: ServicePublisher, _ accept: (PublisherState) -> Bool
) async throws -> PublisherState {
    let reached = try await eventually(tries: 100) { accept(publisher.state) ? publisher.state : nil }
    return reached ?? publisher.state
}

/// Polls avahi-browse in the namespace (bounded) until `accept` holds for what it sees.
func waitForBrowse(
    _ namespace: MDNSNamespace, _ accept: ([BrowsedService]) -> Bool
) async throws -> [BrowsedService] {
    var last: [BrowsedService] = []
    _ = try await eventually(tries: 40) { () async throws -> Bool? in
        guard let seen = try await namespace.browse() else { return nil }
        last = seen
        return accept(last) ? true : nil
    }
    return last
}

/// Starts the namespace's avahi-daemon and a publisher of the whole fleet, and waits until it is published.
private func startFleet(in namespace: MDNSNamespace) async throws -> (ServicePublisher, [ServiceID]) {
    try await namespace.startAvahi()
    let publisher = try ServicePublisher()
    try publisher.start()
    let ids = try fleet.map { try publisher.publish($0) }
    #expect(try await waitForState(publisher) { $0 == .published } == .published)
    return (publisher, ids)
}

@Suite("mDNS", .serialized)
struct MDNSTests {
    @Suite(
        "inside a network namespace of their own",
        .enabled(if: MDNSNamespace.unavailableReason == nil, Comment(rawValue: MDNSNamespace.unavailableReason ?? "")))
    struct Namespaced {
        @Test("a fleet of three receivers is published with its TXT records, on the namespace's veth only")
        func fleetIsPublished() async throws {
            try await MDNSNamespace.with { namespace in
                let (publisher, _) = try await startFleet(in: namespace)
                defer { publisher.stop() }
                #expect(publisher.services.map(\.publishedName) == fleet.map(\.name))
                let seen = try await waitForBrowse(namespace) { $0.count == fleet.count }
                #expect(seen.count == fleet.count)
                for service in fleet {
                    let browsed = seen.first { $0.name == service.name }
                    #expect(browsed?.port == service.port)
                    #expect(browsed?.txt == expectedTXT(service))
                    // The daemon the publisher reached is the namespaced one: it answers with the veth's
                    // address and the test host name.
                    #expect(browsed?.address == MDNSNamespace.address)
                    #expect(browsed?.interface == MDNSNamespace.link)
                    #expect(browsed?.hostName == "\(MDNSNamespace.hostName).local")
                }
                #expect(namespace.joinedInterfaces == ["\(MDNSNamespace.link).IPv4"])
            }
        }

        @Test("the browser resolves every published receiver with its address, port and TXT record")
        func browserFindsFleet() async throws {
            try await MDNSNamespace.with { namespace in
                let (publisher, _) = try await startFleet(in: namespace)
                defer { publisher.stop() }

                let found = try await ServiceBrowser().browse(timeout: .seconds(5))
                #expect(Set(found.map(\.name)) == Set(fleet.map(\.name)))
                for service in fleet {
                    let match = found.first { $0.name == service.name }
                    #expect(match?.address == MDNSNamespace.address)
                    #expect(match?.port == service.port)
                    #expect(match?.txt == expectedTXT(service))
                }
            }
        }

        @Test("an update changes the TXT record in place; withdraw and stop take services off the network")
        func updateWithdrawStop() async throws {
            try await MDNSNamespace.with { namespace in
                let (publisher, ids) = try await startFleet(in: namespace)
                defer { publisher.stop() }

                var changed = fleet[0]
                changed.txtRecord.append((key: "pw", value: "true"))
                try publisher.update(ids[0], to: changed)
                publisher.withdraw(ids[2])
                let seen = try await waitForBrowse(namespace) { services in
                    services.count == 2 && services.first { $0.name == changed.name }?.txt["pw"] == "true"
                }
                #expect(Set(seen.map(\.name)) == [fleet[0].name, fleet[1].name])
                #expect(seen.first { $0.name == changed.name }?.txt == expectedTXT(changed))

                publisher.stop()
                #expect(publisher.state == .stopped)
                let afterStop = try await waitForBrowse(namespace) { $0.isEmpty }
                #expect(afterStop.isEmpty)
            }
        }

        @Test("every service is published again after avahi-daemon is killed and restarted")
        func survivesDaemonRestart() async throws {
            try await MDNSNamespace.with { namespace in
                let (publisher, _) = try await startFleet(in: namespace)
                defer { publisher.stop() }

                try await namespace.killAvahi()
                #expect(try await waitForState(publisher) { $0 == .waitingForAvahi } == .waitingForAvahi)
                #expect(publisher.services.allSatisfy { $0.status == .pending })

                try await namespace.startAvahi()
                #expect(try await waitForState(publisher) { $0 == .published } == .published)
                let seen = try await waitForBrowse(namespace) { $0.count == fleet.count }
                #expect(Set(seen.map(\.name)) == Set(fleet.map(\.name)))
                for service in fleet {
                    #expect(seen.first { $0.name == service.name }?.txt == expectedTXT(service))
                }
            }
        }

        @Test("a name already taken gets avahi's alternative name, and both holders stay visible")
        func collisionTakesAlternativeName() async throws {
            try await MDNSNamespace.with { namespace in
                try await namespace.startAvahi()
                // Another process in the namespace holds "Kitchen" first.
                try await namespace.holdName("Kitchen", port: 7100)
                let publisher = try ServicePublisher()
                defer { publisher.stop() }
                try publisher.start()
                let kitchen = try publisher.publish(fleet[1])
                // Two receivers of one process asking for the same name.
                let first = try publisher.publish(fleet[0])
                var twin = fleet[0]
                twin.port = 7003
                let second = try publisher.publish(twin)
                #expect(try await waitForState(publisher) { $0 == .published } == .published)

                #expect(publisher.publishedName(of: kitchen) == "Kitchen #2")
                #expect(publisher.publishedName(of: first) == "Living Room")
                #expect(publisher.publishedName(of: second) == "Living Room #2")
                let expected: Set<String> = ["Kitchen", "Kitchen #2", "Living Room", "Living Room #2"]
                let seen = try await waitForBrowse(namespace) { Set($0.map(\.name)) == expected }
                #expect(Set(seen.map(\.name)) == expected)
                #expect(seen.first { $0.name == "Living Room #2" }?.port == 7003)
            }
        }

        @Test("a name another host on the link holds makes the group collide, and the service moves to the alternative name")
        func collisionOnTheLink() async throws {
            try await MDNSNamespace.with { namespace in
                try await namespace.startPeerHost(holding: "Living Room", port: 7200)
                try await namespace.startAvahi()
                let publisher = try ServicePublisher()
                defer { publisher.stop() }
                try publisher.start()
                let id = try publisher.publish(fleet[0])
                #expect(try await waitForState(publisher) { $0 == .published } == .published)

                #expect(publisher.publishedName(of: id) == "Living Room #2")
                let seen = try await waitForBrowse(namespace) { $0.count == 2 }
                let byName = Dictionary(seen.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
                #expect(byName["Living Room"]?.address == MDNSNamespace.peerAddress)
                #expect(byName["Living Room #2"]?.address == MDNSNamespace.address)
                #expect(byName["Living Room #2"]?.txt == expectedTXT(fleet[0]))
            }
        }

        @Test("with avahi-daemon absent at start the publisher waits, then publishes once the daemon starts")
        func waitsForAbsentDaemon() async throws {
            try await MDNSNamespace.with { namespace in
                let publisher = try ServicePublisher()
                defer { publisher.stop() }
                try publisher.start()
                let id = try publisher.publish(fleet[0])
                #expect(try await waitForState(publisher) { $0 == .waitingForAvahi } == .waitingForAvahi)
                #expect(publisher.publishedName(of: id) == nil)
                await #expect(throws: DiscoveryError.daemonUnavailable) {
                    try await ServiceBrowser().browse(timeout: .seconds(1))
                }

                try await namespace.startAvahi()
                #expect(try await waitForState(publisher) { $0 == .published } == .published)
                #expect(publisher.publishedName(of: id) == fleet[0].name)
                // Every change was announced, in order (the stream keeps them until read).
                var states: [PublisherState] = []
                for await state in publisher.stateUpdates {
                    states.append(state)
                    if state == .published { break }
                }
                #expect(states == [.waitingForAvahi, .registering, .published])
                let seen = try await waitForBrowse(namespace) { $0.count == 1 }
                #expect(seen.first?.name == fleet[0].name)
                #expect(seen.first?.txt == expectedTXT(fleet[0]))
            }
        }
    }
}
