import Foundation
import MediaValues

/// Checks the continuity counters of a transport stream's 188-byte packets, per PID.
///
/// libavformat only logs "Continuity check failed", so the TS headers are read directly: four bytes
/// a packet, one pass. The rules are ISO/IEC 13818-1 §2.4.3.3's: the counter steps by one (mod 16) on
/// every packet of a PID that carries a payload; a packet without payload (adaptation field only)
/// does not step it and is not checked; one duplicate (same counter, payload again) is allowed; a
/// set `discontinuity_indicator` restarts the count; null packets (PID 0x1FFF) have no counter.
enum ContinuityScan {
    static let packetSize = 188
    private static let nullPID = 0x1FFF

    /// The scan of `bytes`, or nil when they do not start as a transport stream.
    static func scan(_ bytes: UnsafeRawBufferPointer) -> TransportStreamScan? {
        guard bytes.count >= packetSize, bytes[0] == 0x47 else { return nil }
        let whole = bytes.count / packetSize
        // The previous counter per PID (-1: none yet) and whether it was already repeated once.
        var last = [Int8](repeating: -1, count: nullPID + 1)
        var repeated = [Bool](repeating: false, count: nullPID + 1)
        var scan = TransportStreamScan(packetCount: 0)
        for index in 0..<whole {
            let offset = index * packetSize
            // A lost sync byte ends the part that can be read as packets.
            guard bytes[offset] == 0x47 else {
                scan.trailingBytes = bytes.count - offset
                return scan
            }
            scan.packetCount += 1
            let pid = Int(bytes[offset + 1] & 0x1F) << 8 | Int(bytes[offset + 2])
            let control = bytes[offset + 3] >> 4 & 0x03
            let counter = Int8(bytes[offset + 3] & 0x0F)
            guard pid != nullPID, control & 0x01 != 0 else { continue }
            let hasAdaptation = control & 0x02 != 0
            let discontinuity = hasAdaptation && bytes[offset + 4] > 0 && bytes[offset + 5] & 0x80 != 0
            defer { last[pid] = counter }
            let previous = last[pid]
            guard previous >= 0, !discontinuity else {
                repeated[pid] = false
                continue
            }
            let expected = (previous + 1) & 0x0F
            if counter == expected {
                repeated[pid] = false
            } else if counter == previous, !repeated[pid] {
                repeated[pid] = true
            } else {
                scan.breakCount += 1
                if scan.breaks.count < TransportStreamScan.breakLimit {
                    scan.breaks.append(ContinuityBreak(pid: pid, packetIndex: index, expected: Int(expected), found: Int(counter)))
                }
                repeated[pid] = false
            }
        }
        scan.trailingBytes = bytes.count - whole * packetSize
        return scan
    }
}
