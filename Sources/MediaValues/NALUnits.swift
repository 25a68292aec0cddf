/// Splitting an Annex B byte stream (start-code delimited, as in a TS) into NAL units.
package enum NALUnits {
    /// The units between 0x000001 start codes, each starting with its NAL header.
    package static func units(in bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.withUnsafeBytes { buffer in unitRanges(in: buffer) }.map { bytes[$0] }
    }

    /// Where each unit between 0x000001 start codes lies in `bytes`, its NAL header first: one pass,
    /// nothing copied, for the packets of a whole segment.
    package static func unitRanges(in bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        visitUnits(in: bytes) { start in
            ranges.append(start..<unitEnd(in: bytes, from: start))
            return true
        }
        return ranges
    }

    /// Calls `visit` with the offset of each unit's NAL header, in order, until it returns false.
    ///
    /// A reader that only needs the units before the first slice (parameter sets, the picture's type)
    /// stops there and never scans the slice data, which is nearly all of a packet.
    package static func visitUnits(in bytes: UnsafeRawBufferPointer, _ visit: (Int) -> Bool) {
        var index = 0
        while let start = nextStart(in: bytes, from: index) {
            guard visit(start) else { return }
            index = start
        }
    }

    /// Where the unit whose header is at `start` ends: before the next start code (and the zero of a
    /// four-byte one), or at the end of the bytes.
    package static func unitEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard let next = nextStart(in: bytes, from: start) else { return bytes.count }
        var end = next - 3
        while end > start, bytes[end - 1] == 0 { end -= 1 }
        return end
    }

    /// The offset just after the first 0x000001 at or after `index`.
    private static func nextStart(in bytes: UnsafeRawBufferPointer, from index: Int) -> Int? {
        var index = index
        while index + 2 < bytes.count {
            if bytes[index + 2] > 1 {
                // Neither this byte nor the next can begin a start code: skip three at once.
                index += 3
            } else if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                return index + 3
            } else {
                index += 1
            }
        }
        return nil
    }

    /// The units of a length-prefixed stream (avcC/hvcC in MP4): each unit follows its big-endian
    /// length of `lengthSize` bytes. A length that runs past the end ends the list.
    package static func lengthPrefixedRanges(in bytes: UnsafeRawBufferPointer, lengthSize: Int) -> [Range<Int>] {
        guard (1...4).contains(lengthSize) else { return [] }
        var ranges: [Range<Int>] = []
        var index = 0
        while index + lengthSize <= bytes.count {
            var length = 0
            for offset in 0..<lengthSize { length = length << 8 | Int(bytes[index + offset]) }
            let start = index + lengthSize
            guard length > 0, length <= bytes.count - start else { break }
            ranges.append(start..<start + length)
            index = start + length
        }
        return ranges
    }

    /// The RBSP: every 0x03 that follows two zero bytes was inserted to avoid a false start code.
    package static func removingEmulationPrevention(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var zeros = 0
        for byte in bytes {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            result.append(byte)
        }
        return result
    }
}
