import Origin
import Testing

/// Drives a delivery on a virtual clock: the time moves only by the waits it asks for.
struct VirtualDelivery {
    var delivery: BodyDelivery
    var elapsed: Duration = .zero
    var waits: [Duration] = []

    /// Runs to the end; returns the bytes sent and how it ended.
    mutating func run(capacity: Int = 32_768) -> (bytes: Int, ending: BodyDelivery.Step) {
        for _ in 0..<1_000_000 {
            switch delivery.next(capacity: capacity, elapsed: elapsed) {
            case .send(let count):
                precondition(count > 0 && count <= capacity)
                delivery.sent(count)
            case .wait(let delay):
                waits.append(delay)
                elapsed += delay
            case let ending:
                return (delivery.sentBytes, ending)
            }
        }
        return (delivery.sentBytes, .wait(.zero))
    }
}

@Suite("Body delivery")
struct BodyDeliveryTests {
    func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test("a plain body is sent whole in chunks no larger than asked, then ends")
    func plainBody() {
        var run = VirtualDelivery(delivery: BodyDelivery(size: 100_000))
        let (bytes, ending) = run.run(capacity: 30_000)
        #expect(bytes == 100_000)
        #expect(ending == .end)
        #expect(run.waits.isEmpty)
        #expect(run.delivery.declaredLength == 100_000)
    }

    @Test("a paced body takes size over rate on the virtual clock, within one pacing quantum", arguments: [1_000, 250_000, 5_000_000])
    func pacedBody(rate: Int) {
        let size = 1_000_000
        var run = VirtualDelivery(delivery: BodyDelivery(size: size, faults: BodyFaults(paceBytesPerSecond: rate)))
        let (bytes, ending) = run.run()
        #expect(bytes == size)
        #expect(ending == .end)
        let expected = Double(size) / Double(rate)
        #expect(abs(seconds(run.elapsed) - expected) <= max(0.021, expected * 0.001), "took \(run.elapsed), expected \(expected) s")
    }

    @Test("a stall sends exactly the bytes before it, waits once, then sends the rest")
    func stall() {
        var delivery = BodyDelivery(size: 10_000, faults: BodyFaults(stall: .init(afterBytes: 4_000, duration: .seconds(3))))
        #expect(delivery.next(capacity: 32_768, elapsed: .zero) == .send(4_000))
        delivery.sent(4_000)
        #expect(delivery.next(capacity: 32_768, elapsed: .zero) == .wait(.seconds(3)))
        #expect(delivery.next(capacity: 32_768, elapsed: .seconds(3)) == .send(6_000))
        delivery.sent(6_000)
        #expect(delivery.next(capacity: 32_768, elapsed: .seconds(3)) == .end)
    }

    @Test("a paced body does not burst to make up for a stall")
    func pacingLeavesStallOut() {
        let faults = BodyFaults(paceBytesPerSecond: 100_000, stall: .init(afterBytes: 50_000, duration: .seconds(2)))
        var run = VirtualDelivery(delivery: BodyDelivery(size: 200_000, faults: faults))
        _ = run.run()
        #expect(abs(seconds(run.elapsed) - 4.0) < 0.05, "took \(run.elapsed)")
    }

    @Test("truncation aborts after exactly the bytes asked for")
    func truncation() {
        var run = VirtualDelivery(delivery: BodyDelivery(size: 10_000, faults: BodyFaults(truncateAfterBytes: 1_234)))
        let (bytes, ending) = run.run(capacity: 1_000)
        #expect(bytes == 1_234)
        #expect(ending == .abort)
        #expect(run.delivery.declaredLength == 10_000)
    }

    @Test("a reset ends the body with a reset after exactly its bytes; it wins a tie with a truncation, and an earlier truncation wins")
    func reset() {
        var run = VirtualDelivery(delivery: BodyDelivery(size: 10_000, faults: BodyFaults(resetAfterBytes: 2_500)))
        let (bytes, ending) = run.run(capacity: 1_000)
        #expect(bytes == 2_500 && ending == .reset)
        var tie = VirtualDelivery(delivery: BodyDelivery(size: 10_000, faults: BodyFaults(truncateAfterBytes: 2_500, resetAfterBytes: 2_500)))
        #expect(tie.run().ending == .reset)
        var earlier = VirtualDelivery(delivery: BodyDelivery(size: 10_000, faults: BodyFaults(truncateAfterBytes: 1_000, resetAfterBytes: 2_500)))
        #expect(earlier.run() == (1_000, .abort))
        var beyond = VirtualDelivery(delivery: BodyDelivery(size: 1_000, faults: BodyFaults(resetAfterBytes: 5_000)))
        #expect(beyond.run() == (1_000, .end), "a reset past the body's end never comes")
        var atEnd = VirtualDelivery(delivery: BodyDelivery(size: 1_000, faults: BodyFaults(resetAfterBytes: 1_000)))
        #expect(atEnd.run() == (1_000, .reset), "every byte, then a reset instead of the end")
    }

    @Test("a longer Content-Length sends the real bytes and breaks; a shorter one cuts the body cleanly")
    func wrongContentLength() {
        var longer = VirtualDelivery(delivery: BodyDelivery(size: 5_000, faults: BodyFaults(contentLengthError: 100)))
        #expect(longer.delivery.declaredLength == 5_100)
        let (sentLonger, endingLonger) = longer.run()
        #expect(sentLonger == 5_000)
        #expect(endingLonger == .abort)
        var shorter = VirtualDelivery(delivery: BodyDelivery(size: 5_000, faults: BodyFaults(contentLengthError: -1_000)))
        #expect(shorter.delivery.declaredLength == 4_000)
        let (sentShorter, endingShorter) = shorter.run()
        #expect(sentShorter == 4_000)
        #expect(endingShorter == .end)
    }
}
