/// RFC 6381 `CODECS` values, as an HLS multivariant playlist would declare the stream.
///
/// H.264 and HEVC strings come from the decoder configuration itself (avcC/hvcC in MP4, the SPS in a
/// TS), because FFmpeg's profile number drops the constraint flags the strings carry.
package enum CodecString {
    package static func make(codecName: String, profile: Int32, level: Int32, extradata: [UInt8], codecTag: UInt32) -> String? {
        switch codecName {
        case "h264": avc(extradata: extradata) ?? avc(profile: profile, level: level)
        case "hevc": hevc(extradata: extradata, sampleEntry: fourCC(codecTag) == "hev1" ? "hev1" : "hvc1")
        case "aac": aac(profile: profile, extradata: extradata)
        case "ac3": "ac-3"
        case "eac3": "ec-3"
        case "mp3": "mp4a.40.34"
        case "opus": "Opus"
        case "flac": "fLaC"
        case "alac": "alac"
        case "webvtt": "wvtt"
        default: nil
        }
    }

    // MARK: - H.264 (ISO/IEC 14496-15 §5.3.3.1; RFC 6381 §3.3)

    /// avc1.PPCCLL from profile_idc, the constraint_set flags byte and level_idc.
    static func avc(extradata: [UInt8]) -> String? {
        let triple: ArraySlice<UInt8>
        if extradata.first == 1, extradata.count >= 4 {
            triple = extradata[1...3]  // AVCDecoderConfigurationRecord
        } else if let sps = NALUnits.units(in: extradata).first(where: { ($0.first ?? 0) & 0x1F == 7 }), sps.count >= 4 {
            triple = sps[(sps.startIndex + 1)...(sps.startIndex + 3)]
        } else {
            return nil
        }
        return "avc1." + triple.map { hex($0, width: 2) }.joined()
    }

    /// A fallback from FFmpeg's numbers: constraint_set1 and _3 are the only flags FFmpeg keeps.
    static func avc(profile: Int32, level: Int32) -> String? {
        guard profile >= 0, level > 0 else { return nil }
        var constraints: UInt8 = 0
        if profile & (1 << 9) != 0 { constraints |= 0x40 }  // FF_PROFILE_H264_CONSTRAINED
        if profile & (1 << 11) != 0 { constraints |= 0x10 }  // FF_PROFILE_H264_INTRA
        return "avc1." + hex(UInt8(profile & 0xFF), width: 2) + hex(constraints, width: 2) + hex(UInt8(level), width: 2)
    }

    // MARK: - HEVC (ISO/IEC 14496-15 Annex E.3)

    /// hvc1.[A-C]?profile.compat-reversed.Ltier-level.constraint-bytes from profile_tier_level.
    static func hevc(extradata: [UInt8], sampleEntry: String) -> String? {
        let ptl: [UInt8]
        if extradata.first == 1, extradata.count >= 13 {
            ptl = Array(extradata[1...12])  // HEVCDecoderConfigurationRecord
        } else if let sps = NALUnits.units(in: extradata).first(where: { ($0.first ?? 0) >> 1 & 0x3F == 33 }) {
            // After the two-byte NAL header and the byte of ids and sub-layer count.
            let payload = NALUnits.removingEmulationPrevention(Array(sps.dropFirst(2)))
            guard payload.count >= 13 else { return nil }
            ptl = Array(payload[1...12])
        } else {
            return nil
        }
        let space = ["", "A", "B", "C"][Int(ptl[0] >> 6)]
        let tier = ptl[0] & 0x20 != 0 ? "H" : "L"
        let profile = ptl[0] & 0x1F
        let compatibility = ptl[1...4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var constraints = Array(ptl[5...10])
        while constraints.last == 0 { constraints.removeLast() }
        var parts = [sampleEntry, "\(space)\(profile)", hex32(compatibility.bitReversed), "\(tier)\(ptl[11])"]
        parts += constraints.map { hex($0, width: 1) }
        return parts.joined(separator: ".")
    }

    // MARK: - AAC (RFC 6381 §3.3: mp4a.40.<audio object type>)

    static func aac(profile: Int32, extradata: [UInt8]) -> String? {
        // FFmpeg's AAC profiles are the audio object type minus one.
        if profile >= 0 { return "mp4a.40.\(profile + 1)" }
        guard let first = extradata.first else { return nil }
        var objectType = Int(first >> 3)
        if objectType == 31, extradata.count >= 2 {
            objectType = 32 + Int(first & 0x07) << 3 + Int(extradata[1] >> 5)
        }
        return "mp4a.40.\(objectType)"
    }

    private static func hex(_ byte: UInt8, width: Int) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func hex32(_ value: UInt32) -> String {
        String(value, radix: 16, uppercase: true)
    }

    private static func fourCC(_ tag: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: tag >> ($0 * 8)) }, as: UTF8.self)
    }
}

extension UInt32 {
    /// The bits in reverse order: Annex E writes the compatibility flags least significant first.
    var bitReversed: UInt32 {
        var value = self
        var reversed: UInt32 = 0
        for _ in 0..<32 {
            reversed = reversed << 1 | value & 1
            value >>= 1
        }
        return reversed
    }
}
