import Foundation
import TestSupport

/// Makes a Dolby Vision test file from an ffmpeg-made HEVC MP4 by adding a `dvcC` box to its sample entry.
///
/// ffmpeg 5.1 writes `dvcC` only when copying a stream that already has one, and no Debian encoder
/// makes Dolby Vision, so the box is added here. libavformat reads only the configuration record to
/// report Dolby Vision (the RPU NAL units it never needs for probing), so FFmpeg and ffprobe both see
/// the file as Dolby Vision. When `moov` comes before `mdat`, growing it moves every sample, so the
/// chunk offsets (`stco`) move with them.
enum DolbyVisionFixture {
    struct Configuration: Hashable, Sendable {
        var profile: UInt8
        var level: UInt8
        var compatibility: UInt8
    }

    static func file(from recipe: MediaRecipe, _ configuration: Configuration) async throws -> URL {
        let source = try await TestMedia.file(recipe)
        let name = "dovi-\(configuration.profile).\(configuration.compatibility)-L\(configuration.level)-\(source.lastPathComponent)"
        return try await BlockingWork.run {
            try TestMedia.cached(name) { partial in
                let patched = try inserting(configuration, into: [UInt8](try Data(contentsOf: source)))
                try Data(patched).write(to: partial)
            }
        }
    }

    /// The dvcC box: DOVIDecoderConfigurationRecord, 24 bytes, after its 8-byte header.
    static func box(_ configuration: Configuration) -> [UInt8] {
        let (profile, level) = (configuration.profile, configuration.level)
        let record: [UInt8] = [
            1, 0,  // dv_version_major, dv_version_minor
            profile << 1 | level >> 5,
            (level & 0x1F) << 3 | 1 << 2 | 0 << 1 | 1,  // rpu_present, no enhancement layer, base layer present
            configuration.compatibility << 4,
        ] + [UInt8](repeating: 0, count: 19)
        return [0, 0, 0, UInt8(8 + record.count)] + Array("dvcC".utf8) + record
    }

    static func inserting(_ configuration: Configuration, into bytes: [UInt8]) throws -> [UInt8] {
        let top = children(of: bytes, in: 0..<bytes.count)
        guard let moov = top.first(where: { $0.type == "moov" }), let mdat = top.first(where: { $0.type == "mdat" }) else {
            throw TestSupportError("expected an MP4 with moov and mdat")
        }
        let samplesMove = moov.range.lowerBound < mdat.range.lowerBound

        for trak in children(of: bytes, in: body(moov)) where trak.type == "trak" {
            var path = [moov, trak]
            for type in ["mdia", "minf", "stbl", "stsd"] {
                guard let child = children(of: bytes, in: body(path.last!)).first(where: { $0.type == type }) else { break }
                path.append(child)
            }
            guard path.count == 6 else { continue }
            // stsd: version and flags, then an entry count, then the sample entries.
            let entries = (path[5].range.lowerBound + 16)..<path[5].range.upperBound
            guard let entry = children(of: bytes, in: entries).first(where: { ["hvc1", "hev1"].contains($0.type) }) else { continue }
            let insertion = box(configuration)
            var result = bytes
            if samplesMove {
                // Every track's chunk offsets, each a 32-bit entry after version, flags and count.
                for track in children(of: bytes, in: body(moov)) where track.type == "trak" {
                    for offsets in chunkOffsetTables(of: bytes, in: track) {
                        for entry in stride(from: offsets.range.lowerBound + 16, to: offsets.range.upperBound, by: 4) {
                            write(readUInt32(bytes, at: entry) + UInt32(insertion.count), into: &result, at: entry)
                        }
                    }
                }
            }
            // Sizes and offsets are written before the insertion, where they still sit in `result`.
            for container in path + [entry] {
                write(UInt32(container.range.count + insertion.count), into: &result, at: container.range.lowerBound)
            }
            result.insert(contentsOf: insertion, at: entry.range.upperBound)
            return result
        }
        throw TestSupportError("no HEVC sample entry found")
    }

    private static func chunkOffsetTables(of bytes: [UInt8], in track: Box) -> [Box] {
        var level = [track]
        for type in ["mdia", "minf", "stbl"] {
            level = level.flatMap { children(of: bytes, in: body($0)) }.filter { $0.type == type }
        }
        return level.flatMap { children(of: bytes, in: body($0)) }.filter { $0.type == "stco" }
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func write(_ value: UInt32, into bytes: inout [UInt8], at offset: Int) {
        bytes.replaceSubrange(offset..<(offset + 4), with: withUnsafeBytes(of: value.bigEndian, Array.init))
    }

    private struct Box {
        var type: String
        var range: Range<Int>
    }

    private static func body(_ box: Box) -> Range<Int> {
        (box.range.lowerBound + 8)..<box.range.upperBound
    }

    /// The boxes laid end to end in `range`, with 32-bit sizes (all ffmpeg writes for short clips).
    private static func children(of bytes: [UInt8], in range: Range<Int>) -> [Box] {
        var boxes: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let size = Int(readUInt32(bytes, at: offset))
            guard size >= 8, offset + size <= range.upperBound else { break }
            boxes.append(Box(type: String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self), range: offset..<(offset + size)))
            offset += size
        }
        return boxes
    }
}
