import Foundation
import Origin
import TestSupport
import Testing
import Transport

@Suite("Test origin faults")
struct OriginFaultTests {
    let body = OriginFixture.pattern(200_000)

    @Test("a status rule answers its status (with Retry-After) for the matched requests, then the file is served")
    func statusThenService() async throws {
        let fixture = try OriginFixture(
            plan: #"{"rules": [{"name": "two-503", "path": "/ads/*.ts", "requests": {"through": 2}, "status": 503, "retryAfterSeconds": 4}]}"#,
            files: ["ads/a1.ts": body])
        defer { fixture.stop() }
        let first = try await HTTPTestClient.send(port: fixture.origin.port, "GET", "/ads/a1.ts")
        #expect(first.status == 503)
        #expect(first.headers["retry-after"] == "4")
        let second = await fixture.fetch("/ads/a1.ts")
        let third = await fixture.fetch("/ads/a1.ts")
        #expect(second.status == 503)
        #expect(second.header("Retry-After") == "4")
        #expect(third.status == 200)
        #expect(third.header("Retry-After") == nil)
        #expect(third.body == body)
        let rows = await fixture.rows(3)
        #expect(rows.map(\.status) == [503, 503, 200])
        #expect(rows.map(\.rule) == ["two-503", "two-503", nil])
    }

    @Test("a rule's window is the origin's uptime: one still open applies, one not yet open does not, and the log names the rule")
    func windowsFollowUptime() async throws {
        let plan = #"{"rules": [{"name": "later", "path": "*", "during": {"fromSeconds": 3600}, "status": 500}, {"name": "outage", "path": "*", "during": {"untilSeconds": 3600}, "status": 503}]}"#
        let fixture = try OriginFixture(plan: plan, files: ["seg.ts": body])
        defer { fixture.stop() }
        #expect(await fixture.fetch("/seg.ts").status == 503)
        #expect(await fixture.rows(1).map(\.rule) == ["outage"])
    }

    @Test("a client glob applies a rule only to the requests whose client id header matches")
    func clientMatching() async throws {
        let fixture = try OriginFixture(plan: #"{"rules": [{"path": "*", "client": "rx-1", "status": 410}]}"#, files: ["seg.ts": body])
        defer { fixture.stop() }
        let matched = await fixture.fetch("/seg.ts") { $0.headers = [("X-Airlab-Client", "rx-1")] }
        let other = await fixture.fetch("/seg.ts") { $0.headers = [("X-Airlab-Client", "rx-2")] }
        let anonymous = await fixture.fetch("/seg.ts")
        #expect([matched.status, other.status, anonymous.status] == [410, 200, 200])
        let rows = await fixture.rows(3)
        #expect(rows.map(\.client) == ["rx-1", "rx-2", nil])
    }

    @Test("ttfbMs holds the response before its headers, seen by the client and in the log")
    func timeToFirstByte() async throws {
        let fixture = try OriginFixture(plan: #"{"rules": [{"path": "/seg.ts", "ttfbMs": 400}]}"#, files: ["seg.ts": body])
        defer { fixture.stop() }
        let result = await fixture.fetch("/seg.ts")
        #expect(result.status == 200)
        let ttfb = try #require(result.timeToFirstByte)
        // The lower bound is the rule; the upper one only says the head was not held for anything else.
        #expect(ttfb >= .milliseconds(400) && ttfb < .seconds(10), "ttfb \(ttfb)")
        let row = try #require(await fixture.rows(1).first)
        #expect((row.firstByte ?? 0) - row.arrival >= 0.4)
    }

    @Test("paceBytesPerSec sends the body at that rate, seen by the client and in the log")
    func serverPacing() async throws {
        let fixture = try OriginFixture(plan: #"{"rules": [{"path": "/seg.ts", "paceBytesPerSec": 400000}]}"#, files: ["seg.ts": body])
        defer { fixture.stop() }
        let result = await fixture.fetch("/seg.ts")
        #expect(result.body == body)
        let transfer = seconds(try #require(result.firstByte).duration(to: try #require(result.lastByte)))
        #expect(transfer >= 0.35 && transfer < 1.5, "200 kB at 400 kB/s took \(transfer) s")
        let row = try #require(await fixture.rows(1).first)
        let logged = row.lastByte - (row.firstByte ?? row.lastByte)
        #expect(logged >= 0.4 && logged < 1.5, "the origin logged \(logged) s")
    }

    @Test("a stall sends the first bytes, holds the rest for stallMs, then completes")
    func stall() async throws {
        let fixture = try OriginFixture(
            plan: #"{"rules": [{"path": "/seg.ts", "stallAfterBytes": 50000, "stallMs": 700}]}"#, files: ["seg.ts": body])
        defer { fixture.stop() }
        let result = await fixture.fetch("/seg.ts")
        #expect(result.error == nil)
        #expect(result.body == body)
        let transfer = seconds(try #require(result.firstByte).duration(to: try #require(result.lastByte)))
        #expect(transfer >= 0.65, "took \(transfer) s")
        let row = try #require(await fixture.rows(1).first)
        #expect(row.bytes == 200_000 && row.completed)
    }

    @Test("truncateAfterBytes closes the connection after exactly that many bytes")
    func truncation() async throws {
        let fixture = try OriginFixture(plan: #"{"rules": [{"path": "/seg.ts", "truncateAfterBytes": 12345}]}"#, files: ["seg.ts": body])
        defer { fixture.stop() }
        let result = await fixture.fetch("/seg.ts")
        guard case .partialBody = result.error else {
            Issue.record("expected a partial body, got \(String(describing: result.error))")
            return
        }
        #expect(result.bytes == 12_345)
        #expect(result.body == body.prefix(12_345))
        let row = try #require(await fixture.rows(1).first)
        #expect(row.bytes == 12_345)
        #expect(!row.completed)
    }

    @Test("resetAfterBytes resets the connection there: the client reads a reset by peer, not the end of a short body")
    func connectionReset() async throws {
        let fixture = try OriginFixture(plan: #"{"rules": [{"name": "rst", "path": "/seg.ts", "resetAfterBytes": 50000}]}"#, files: ["seg.ts": body])
        defer { fixture.stop() }
        let result = await fixture.fetch("/seg.ts")
        // libcurl's receive error, where a truncation is its "transfer closed with bytes remaining".
        guard case .partialBody(let message) = result.error else {
            Issue.record("expected a reset, got \(String(describing: result.error))")
            return
        }
        #expect(message.contains("Connection reset by peer"), "\(message)")
        // What arrived before the reset depends on what the kernel had sent.
        #expect(result.bytes <= 50_000)
        let row = try #require(await fixture.rows(1).first)
        #expect(row.rule == "rst" && row.bytes == 50_000 && !row.completed)
    }

    @Test("wrongContentLength above the truth leaves the client short; below it cuts the body at the declared length")
    func wrongContentLength() async throws {
        let fixture = try OriginFixture(
            plan: #"{"rules": [{"path": "/long.ts", "wrongContentLength": 1000}, {"path": "/short.ts", "wrongContentLength": -1000}]}"#,
            files: ["long.ts": body, "short.ts": body])
        defer { fixture.stop() }
        let long = await fixture.fetch("/long.ts")
        guard case .partialBody = long.error else {
            Issue.record("expected a partial body, got \(String(describing: long.error))")
            return
        }
        #expect(long.bytes == 200_000)
        let short = await fixture.fetch("/short.ts")
        #expect(short.error == nil)
        #expect(short.status == 200)
        #expect(short.body == body.prefix(199_000))
        let rows = await fixture.rows(2)
        #expect(rows.map(\.completed) == [false, true])
    }

    @Test("redirect answers 302 to its path, which a client that follows redirects fetches")
    func redirect() async throws {
        let fixture = try OriginFixture(plan: #"{"rules": [{"path": "/old.ts", "redirect": "/new.ts"}]}"#, files: ["new.ts": body])
        defer { fixture.stop() }
        let reply = try await HTTPTestClient.send(port: fixture.origin.port, "GET", "/old.ts")
        #expect(reply.status == 302)
        #expect(reply.headers["location"] == "/new.ts")
        let followed = await fixture.fetch("/old.ts") { $0.maximumRedirects = 2 }
        #expect(followed.status == 200)
        #expect(followed.body == body)
        #expect(followed.redirects == 1)
        #expect(followed.finalURL == fixture.url("/new.ts"))
        let rows = await fixture.rows(3)
        #expect(rows.map(\.path) == ["/old.ts", "/old.ts", "/new.ts"])
        #expect(rows.map(\.status) == [302, 302, 200])
    }

    @Test("stopping the origin ends a stalled response at once, logged as not completed")
    func stopEndsHeldResponses() async throws {
        let fixture = try OriginFixture(
            plan: #"{"rules": [{"path": "/seg.ts", "stallAfterBytes": 1000, "stallMs": 600000}]}"#, files: ["seg.ts": body])
        defer { fixture.stop() }
        let socket = try RawSocket(port: fixture.origin.port, receiveTimeoutSeconds: 10)
        defer { socket.close() }
        try socket.send("GET /seg.ts HTTP/1.1\r\nHost: origin\r\n\r\n")
        let origin = fixture.origin
        let closed = try await BlockingWork.run { () -> Bool in
            // The headers and the 1000 bytes before the stall, then the origin stops mid-stall.
            let head = socket.read { data in
                guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return false }
                return data.count - end.upperBound >= 1000
            }
            guard !head.isEmpty else { return false }
            let started = ContinuousClock.now
            origin.stop()
            // "At once" against the 600 s stall: a minute is far from it and leaves a loaded machine room.
            return socket.peerClosed() && started.duration(to: .now) < .seconds(60)
        }
        #expect(closed)
        let rows = await fixture.rows(1)
        #expect(rows.first?.completed == false)
        #expect(rows.first?.bytes == 1000)
    }
}
