@testable import Media
import MediaValues
import Testing

/// Transport stream packets made by hand: only the four header bytes (and an adaptation field) matter.
private func packet(pid: Int, counter: Int, payload: Bool = true, adaptation: Bool = false, discontinuity: Bool = false) -> [UInt8] {
    var bytes = [UInt8](repeating: 0xFF, count: 188)
    bytes[0] = 0x47
    bytes[1] = UInt8(pid >> 8 & 0x1F)
    bytes[2] = UInt8(pid & 0xFF)
    let control = (adaptation ? 2 : 0) | (payload ? 1 : 0)
    bytes[3] = UInt8(control << 4 | counter & 0x0F)
    if adaptation {
        bytes[4] = 7
        bytes[5] = discontinuity ? 0x80 : 0
    }
    return bytes
}

private func scan(_ packets: [[UInt8]]) -> TransportStreamScan? {
    packets.flatMap { $0 }.withUnsafeBytes { ContinuityScan.scan($0) }
}

@Suite("TS continuity counters, per ISO/IEC 13818-1 §2.4.3.3")
struct ContinuityScanTests {
    @Test("Counters that step by one and wrap at 16 are continuous, per PID")
    func sequential() {
        let packets = (0..<20).flatMap { [packet(pid: 0x100, counter: $0 % 16), packet(pid: 0x101, counter: ($0 + 7) % 16)] }
        let result = scan(packets)
        #expect(result?.packetCount == 40 && result?.breakCount == 0)
    }

    @Test("A skipped counter is a break, with where it happened")
    func skipped() {
        let result = scan([packet(pid: 0x100, counter: 3), packet(pid: 0x100, counter: 5)])
        #expect(result?.breaks == [ContinuityBreak(pid: 0x100, packetIndex: 1, expected: 4, found: 5)])
    }

    @Test("One duplicate packet is allowed, a second is a break")
    func duplicates() {
        #expect(scan([packet(pid: 0x100, counter: 3), packet(pid: 0x100, counter: 3), packet(pid: 0x100, counter: 4)])?.breakCount == 0)
        #expect(scan([packet(pid: 0x100, counter: 3), packet(pid: 0x100, counter: 3), packet(pid: 0x100, counter: 3)])?.breakCount == 1)
    }

    @Test("Packets without payload do not step the counter and are not checked")
    func adaptationOnly() {
        let result = scan([
            packet(pid: 0x100, counter: 3), packet(pid: 0x100, counter: 9, payload: false, adaptation: true), packet(pid: 0x100, counter: 4),
        ])
        #expect(result?.breakCount == 0)
    }

    @Test("A set discontinuity_indicator restarts the count; null packets carry none")
    func discontinuityAndNull() {
        let result = scan([
            packet(pid: 0x100, counter: 3), packet(pid: 0x100, counter: 11, adaptation: true, discontinuity: true), packet(pid: 0x100, counter: 12),
            packet(pid: 0x1FFF, counter: 0), packet(pid: 0x1FFF, counter: 9),
        ])
        #expect(result?.breakCount == 0)
        #expect(scan([packet(pid: 0x100, counter: 3), packet(pid: 0x100, counter: 11, adaptation: true)])?.breakCount == 1)
    }

    @Test("Bytes that do not start with a sync byte are not a transport stream; a torn tail is counted")
    func notTransportStream() {
        #expect(scan([[UInt8](repeating: 0, count: 376)]) == nil)
        let torn = (packet(pid: 0x100, counter: 0) + [0x47, 1, 2]).withUnsafeBytes { ContinuityScan.scan($0) }
        #expect(torn?.packetCount == 1 && torn?.trailingBytes == 3)
    }
}
