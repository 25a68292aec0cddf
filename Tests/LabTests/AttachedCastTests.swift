import Foundation
@testable import Lab
import SenderProtocol
import Sessions
import Testing

/// `airlab cast` without a terminal: the attached cast against fake receivers.
@Suite("Attached casts")
struct AttachedCastTests {
    func cast(to fake: FakeReceiver) -> AttachedCast {
        var cast = AttachedCast(client: ReceiverClient(fake.receiver), order: PlayOrder(url: "http://127.0.0.1:9/show.m3u8"))
        cast.pollInterval = .milliseconds(50)
        return cast
    }

    @Test("A session that ends before /play even answers is followed to its report: no event of it is missed")
    func fastSession() async throws {
        let fake = try FakeReceiver(name: "Living Room", profile: "apple-tv-4k", behaviour: .plays)
        defer { fake.stop() }
        let seen = Shared<[SessionProgress]>([])
        let outcome = try await cast(to: fake).run(interruption: Interruption(), progress: { progress in seen.update { $0.append(progress) } })
        guard case .ended(let session, let report) = outcome else {
            Issue.record("expected the session to end by itself, got \(outcome)")
            return
        }
        #expect(fake.sessions.map(\.id) == [session.sessionID])
        #expect(report == FakeReceiver.simulatedSession(profile: "apple-tv-4k").withEndReason(report.endReason))
        let last = try #require(seen.current.last)
        #expect(last.state == "ended" && last.interstitialsPlayed == 1)
        #expect(last.lastSwitchMilliseconds == 40)
        #expect(seen.current.contains { $0.interstitial == "ad-1" && $0.lastSwitchMilliseconds == 1200 })
        let sent = try #require(fake.playBodies.first)
        let body = try #require(try JSONSerialization.jsonObject(with: sent) as? [String: Any])
        #expect(body["detached"] == nil, "an attached cast is the legacy kind")
    }

    @Test("Interrupting stops the session on the receiver, closes the /play connection, and still returns the report")
    func interrupt() async throws {
        let fake = try FakeReceiver(name: "Living Room", profile: "apple-tv-4k", behaviour: .holds)
        defer { fake.stop() }
        let interruption = Interruption()
        let outcome = try await cast(to: fake).run(
            interruption: interruption,
            progress: { progress in
                // Once a poll has answered, the cast is surely attached and polling on /play's connection.
                if progress.duration != nil { interruption.happen() }
            })
        guard case .interrupted(let session?, let report?) = outcome else {
            Issue.record("expected an interrupted cast with its report, got \(outcome)")
            return
        }
        #expect(fake.requests.contains("POST /stop"))
        #expect(fake.requests.filter { $0 == "GET /scrub" }.count >= 1)
        #expect(report.endReason == "stopped by the sender")
        let attached = try #require(fake.sessions.first { $0.id == session.sessionID })
        #expect(!attached.active)
        let playConnection = try #require(attached.attachedTo)
        #expect(try await eventually { fake.closedConnections.contains(playConnection) })
    }

    @Test("A receiver that refuses the cast fails it with its reason")
    func refused() async throws {
        let fake = try FakeReceiver(name: "Kitchen", profile: "smart-tv-low", behaviour: .refuses(status: 401, message: "Unauthorized"))
        defer { fake.stop() }
        let error = await #expect(throws: ReceiverError.self) { try await cast(to: fake).run(interruption: Interruption()) }
        #expect(error?.description.hasPrefix("receiver \"Kitchen\" (127.0.0.1:") == true)
        #expect(error?.description.hasSuffix("requires a password (HTTP 401); give it with --password") == true)
    }

    @Test("A receiver that vanishes mid-cast fails it, naming the receiver")
    func vanished() async throws {
        let fake = try FakeReceiver(name: "Attic", profile: "streaming-stick", behaviour: .vanishesAfterPlay)
        defer { fake.stop() }
        let error = await #expect(throws: ReceiverError.self) { try await cast(to: fake).run(interruption: Interruption()) }
        #expect(error?.receiver.hasPrefix("receiver \"Attic\"") == true)
    }
}

/// Polls `condition` every 20 ms for up to 10 s: what another thread does is observed, never assumed.
func eventually(_ condition: () -> Bool) async throws -> Bool {
    for _ in 0..<500 {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}

extension SessionReport {
    func withEndReason(_ reason: String?) -> SessionReport {
        var copy = self
        copy.endReason = reason
        return copy
    }
}
