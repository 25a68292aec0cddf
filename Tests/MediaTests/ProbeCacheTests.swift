import Synchronization
import TestSupport
import Testing
@testable import Media

@Suite("The probe cache")
struct ProbeCacheTests {
    /// Counts the probes a cache runs, per input.
    final class Counter: Sendable {
        let counts = Mutex<[String: Int]>([:])

        func count(_ input: String) -> Int { counts.withLock { $0[input, default: 0] } }

        func record(_ input: String) { counts.withLock { $0[input, default: 0] += 1 } }
    }

    @Test("Concurrent requests for one input share a single probe, and later requests reuse it")
    func concurrentRequestsShareOneProbe() async throws {
        let counter = Counter()
        let cache = ProbeCache { (key: ProbeCache.Key) throws(MediaError) -> MediaParameters in
            counter.record(key.input)
            return MediaParameters(input: key.input, probedURLs: [key.input], streams: [])
        }
        let results = try await withThrowingTaskGroup(of: MediaParameters.self) { group in
            for _ in 0..<16 {
                group.addTask { try await cache.parameters(for: "http://example.test/a.ts") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        _ = try await cache.parameters(for: "http://example.test/a.ts")
        _ = try await cache.parameters(for: "http://example.test/b.ts")

        #expect(results.count == 16)
        #expect(counter.count("http://example.test/a.ts") == 1)
        #expect(counter.count("http://example.test/b.ts") == 1)
    }

    @Test("Probes run on the probe queue's own threads, never on Swift's cooperative pool")
    func probesLeaveTheCooperativePool() async throws {
        let cache = ProbeCache { (key: ProbeCache.Key) throws(MediaError) -> MediaParameters in
            MediaParameters(input: key.input, probedURLs: ProbeQueue.isCurrent ? ["probe queue"] : ["elsewhere"], streams: [])
        }
        #expect(!ProbeQueue.isCurrent)
        #expect(try await cache.parameters(for: "a.ts").probedURLs == ["probe queue"])
    }

    @Test("A failed probe is not kept: the next request probes again")
    func failuresAreRetried() async {
        let counter = Counter()
        let cache = ProbeCache { (key: ProbeCache.Key) throws(MediaError) -> MediaParameters in
            counter.record(key.input)
            throw MediaError(input: key.input, reason: .httpStatus("5xx (server error)"))
        }
        for _ in 0..<2 {
            await #expect(throws: MediaError.self) { try await cache.parameters(for: "http://example.test/down.ts") }
        }
        #expect(counter.count("http://example.test/down.ts") == 2)
    }

    @Test("Each variant of one playlist is its own entry")
    func variantsAreSeparateEntries() async throws {
        let counter = Counter()
        let cache = ProbeCache { (key: ProbeCache.Key) throws(MediaError) -> MediaParameters in
            counter.record("\(key.input)#\(key.variant ?? 0)")
            return MediaParameters(input: key.input, probedURLs: [key.input], variant: key.variant, streams: [])
        }
        _ = try await cache.parameters(for: "m.m3u8", variant: 0)
        _ = try await cache.parameters(for: "m.m3u8", variant: 1)
        _ = try await cache.parameters(for: "m.m3u8", variant: 1)
        #expect(counter.count("m.m3u8#0") == 1)
        #expect(counter.count("m.m3u8#1") == 1)
    }
}
