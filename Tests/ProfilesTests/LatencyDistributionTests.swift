@testable import Profiles
import Testing

@Suite("Latency distributions")
struct LatencyDistributionTests {
    @Test("Draws reproduce the median and 95th percentile they were built from")
    func percentilesHold() {
        let distribution = LatencyDistribution(medianMilliseconds: 300, p95Milliseconds: 700)
        var generator = SeededGenerator(seed: 42)
        let draws = (0..<20_000).map { _ in distribution.sample(using: &generator) }.sorted()
        let median = draws[draws.count / 2]
        let p95 = draws[draws.count * 95 / 100]
        #expect(abs(median - 300) < 15, "median \(median)")
        #expect(abs(p95 - 700) < 40, "p95 \(p95)")
        #expect(draws.allSatisfy { $0 > 0 })
    }

    @Test("One seed gives one sequence; another seed gives another")
    func seedDeterminesDraws() {
        let distribution = LatencyDistribution(medianMilliseconds: 100, p95Milliseconds: 250)
        func draws(_ seed: UInt64) -> [Double] {
            var generator = SeededGenerator.stream("break-1", seed: seed)
            return (0..<5).map { _ in distribution.sample(using: &generator) }
        }
        #expect(draws(7) == draws(7))
        #expect(draws(7) != draws(8))
    }

    @Test("Named streams under one seed are independent of each other")
    func streamsDiffer() {
        var a = SeededGenerator.stream("break-1", seed: 1)
        var b = SeededGenerator.stream("break-2", seed: 1)
        #expect(a.next() != b.next())
    }

    @Test("A zero median is a cost that does not exist; equal percentiles are a fixed cost")
    func degenerateCosts() {
        var generator = SeededGenerator(seed: 1)
        #expect(LatencyDistribution(medianMilliseconds: 0, p95Milliseconds: 20).sample(using: &generator) == 0)
        #expect(LatencyDistribution(medianMilliseconds: 50, p95Milliseconds: 50).sample(using: &generator) == 50)
    }
}
