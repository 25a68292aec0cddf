/// Splitting an Annex B byte stream (start-code delimited, as in a TS) into NAL units.
enum NALUnits {
    /// The units between 0x000001 start codes, each starting with its NAL header.
    static func units(in bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var starts: [Int] = []
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                starts.append(index + 3)
                index += 3
            } else {
                index += 1
            }
        }
        return starts.enumerated().map { position, start in
            var end = position + 1 < starts.count ? starts[position + 1] - 3 : bytes.count
            // A four-byte start code leaves a zero that belongs to the next code, not this unit.
            while end > start, bytes[end - 1] == 0, position + 1 < starts.count { end -= 1 }
            return bytes[start..<end]
        }
    }

    /// The RBSP: every 0x03 that follows two zero bytes was inserted to avoid a false start code.
    static func removingEmulationPrevention(_ bytes: [UInt8]) -> [UInt8] {
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
