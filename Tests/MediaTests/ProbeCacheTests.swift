import Foundation
import MediaValues
import Synchronization
import TestSupport
import Testing
@testable import Media

@Suite("The probe cache")
struct ProbeCacheTests {
    /// Counts the probes a cache runs, per request.
    final class Counter: Sendable {
        let counts = Mutex<[ProbeRequest: Int]>([:])

        func count(_ request: ProbeRequest) -> Int { counts.withLock { $0[request, default: 0] } }

        func record(_ request: ProbeRequest) { counts.withLock { $0[request, default: 0] += 1 } }
    }

    /// A cache whose probe counts its calls and answers with an empty result.
    static func countingCache(_ counter: Counter) -> ProbeCache {
        ProbeCache { request in
            counter.record(request)
            return .success(MediaParameters(input: request.input, probedURLs: [request.input], variant: request.variant, streams: []))
        }
    }

    @Test("Concurrent requests for one input share a single probe, and later requests reuse it")
    func concurrentRequestsShareOneProbe() async throws {
        let counter = Counter()
        let cache = Self.countingCache(counter)
        let a = ProbeRequest(input: "http://example.test/a.ts")
        let results = try await withThrowingTaskGroup(of: MediaParameters.self) { group in
            for _ in 0..<16 {
                group.addTask { try await cache.parameters(for: a) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        _ = try await cache.parameters(for: a)
        let b = ProbeRequest(input: "http://example.test/b.ts")
        _ = try await cache.parameters(for: b)

        #expect(results.count == 16)
        #expect(counter.count(a) == 1)
        #expect(counter.count(b) == 1)
    }

    @Test("Demuxing runs on the probe queue's own threads, never on Swift's cooperative pool")
    func demuxingLeavesTheCooperativePool() async throws {
        #expect(!ProbeQueue.isCurrent)
        #expect(try await ProbeQueue.run(by: .now + .seconds(10)) { (_) throws(MediaError) -> Bool in ProbeQueue.isCurrent })
        // The demuxer's async entry point is the one that goes there; bytes that are no media fail on it.
        await #expect(throws: MediaError.self) {
            try await FFmpegDemuxer.streams(
                of: Data("not media at all".utf8), input: "notes.ts", options: ProbeOptions(), deadline: .now + .seconds(5))
        }
    }

    @Test("The cache keeps at most its limit of answers, the oldest leaving first, so ever new inputs cannot grow it without end")
    func boundedByItsLimit() async throws {
        let counter = Counter()
        let cache = ProbeCache(limit: 100) { request in
            counter.record(request)
            return .success(MediaParameters(input: request.input, probedURLs: [request.input], variant: request.variant, streams: []))
        }
        let requests = (0..<1_000).map { ProbeRequest(input: "http://example.test/\($0).ts") }
        for request in requests { _ = try await cache.parameters(for: request) }
        #expect(await cache.count == 100)
        // The newest are kept, the oldest probed again.
        _ = try await cache.parameters(for: requests[999])
        #expect(counter.count(requests[999]) == 1)
        _ = try await cache.parameters(for: requests[0])
        #expect(counter.count(requests[0]) == 2)
        #expect(await cache.count == 100)
    }

    @Test("A failed probe is not kept: the next request probes again")
    func failuresAreRetried() async {
        let counter = Counter()
        let cache = ProbeCache { request in
            counter.record(request)
            return .failure(MediaError(input: request.input, reason: .httpStatus("5xx (server error)")))
        }
        let down = ProbeRequest(input: "http://example.test/down.ts")
        for _ in 0..<2 {
            await #expect(throws: MediaError.self) { try await cache.parameters(for: down) }
        }
        #expect(counter.count(down) == 2)
    }

    @Test("Each variant, audio language and local-file permission of one input is its own entry")
    func everyPartOfTheRequestIsPartOfTheKey() async throws {
        let counter = Counter()
        let cache = Self.countingCache(counter)
        let requests = [
            ProbeRequest(input: "m.m3u8", variant: 0), ProbeRequest(input: "m.m3u8", variant: 1),
            ProbeRequest(input: "m.m3u8", variant: 1, preferredLanguage: "de"),
            ProbeRequest(input: "m.m3u8", variant: 1, preferredLanguage: "de", allowsLocalFiles: false),
        ]
        for request in requests + requests {
            _ = try await cache.parameters(for: request)
        }
        #expect(requests.map(counter.count) == [1, 1, 1, 1])
    }
}
