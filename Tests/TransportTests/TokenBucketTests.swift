import Profiles
import TestSupport
import Testing
import Transport

@Suite("Token bucket and time ledger", .ownThread)
struct TokenBucketTests {
    @Test("any sequence of chunks drains at the bucket's rate, within one burst and one chunk (seeded, 300 cases)")
    func drainsAtRate() {
        for seed in UInt64(1)...300 {
            var random = SeededGenerator(seed: seed)
            let rate = Double(Int.random(in: 1_000...50_000_000, using: &random))
            let burst = TokenBucket.defaultBurst(rate: rate)
            var bucket = TokenBucket(rate: rate, burst: burst, now: 0)
            var now = 0.0
            var taken = 0
            var largest = 0
            let total = Int(rate * Double.random(in: 0.5...5, using: &random))
            while taken < total {
                let chunk = Int.random(in: 1...65_536, using: &random)
                if bucket.take(chunk, now: now) {
                    taken += chunk
                    largest = max(largest, chunk)
                } else {
                    let delay = bucket.delay(now: now)
                    guard delay > 0 else {
                        Issue.record("seed \(seed): an empty bucket asked for no wait")
                        return
                    }
                    now += delay
                }
            }
            let ideal = Double(taken) / rate
            let slack = (burst + Double(largest)) / rate
            #expect(now >= ideal - slack && now <= ideal + slack, "seed \(seed): \(taken) bytes at \(rate) B/s took \(now) s, ideal \(ideal) s")
        }
    }

    @Test("an idle bucket gathers no more than its burst")
    func burstBoundsIdleTokens() {
        var bucket = TokenBucket(rate: 1_000, burst: 500, now: 0)
        let whole = bucket.take(500, now: 0)
        let more = bucket.take(1, now: 0)
        let afterIdle = bucket.take(1, now: 100)
        #expect(whole && !more && afterIdle)
        #expect(bucket.tokens == 499)
    }

    @Test("the ledger keeps time waiting for data apart from time paused by the bucket")
    func ledgerSplitsTime() {
        var ledger = PacingLedger()
        ledger.resumed(at: 0.5)  // before the first byte nothing counts
        ledger.firstByte(at: 1.0)
        ledger.data(at: 1.5)  // 0.5 s waiting for the origin
        ledger.paused(at: 1.75)  // 0.25 s more
        ledger.resumed(at: 2.75)  // 1 s paused by the bucket
        ledger.data(at: 2.75)
        ledger.paused(at: 3.0)  // 0.25 s
        ledger.finished(at: 3.5)  // 0.5 s paused
        #expect(ledger.originLimitedSeconds == 1.0)
        #expect(ledger.receiverLimitedSeconds == 1.5)
    }
}
