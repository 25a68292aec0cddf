import Foundation
import TestSupport

/// How to make one short test clip with the `ffmpeg` CLI: a small picture and a tone, one second long.
///
/// Every property has the baseline's value, so a recipe that changes one property yields media that
/// differ from the baseline on exactly the dimensions that property touches. Levels are pinned so
/// that a frame-rate change does not also move x264's automatic level choice.
public struct MediaRecipe: Sendable, Hashable, CustomStringConvertible {
    public var name = "baseline"
    public var videoCodec = "libx264"
    public var size = "320x180"
    public var frameRate = "30"
    public var sampleAspectRatio: String?
    public var pixelFormat = "yuv420p"
    /// color_trc, color_primaries, colorspace, as ffmpeg spells them.
    public var colour: (transfer: String, primaries: String, space: String)?
    public var audioCodec = "aac"
    /// The encoder's sample format when not its default: ALAC stores 24-bit audio as s32p.
    public var sampleFormat: String?
    public var sampleRate = 48000
    public var channels = 2
    public var language = "eng"
    /// Which of the picture and the tone the clip carries: HLS puts them in separate renditions.
    public var streams = Streams.both
    /// "mpegts" or "mp4".
    public var container = "mpegts"
    /// Seconds of picture and tone.
    public var seconds = 1

    public var description: String { name }

    public init() {}

    public static func == (left: MediaRecipe, right: MediaRecipe) -> Bool { left.arguments == right.arguments }
    public func hash(into hasher: inout Hasher) { hasher.combine(arguments) }

    public enum Streams: String, Sendable {
        case both, videoOnly, audioOnly
    }

    /// The ffmpeg arguments before the output name; the cache key is made of exactly these.
    public var arguments: [String] {
        // moov first, as an MP4 meant for HTTP is written: the test server (Python's http.server)
        // ignores Range requests, so FFmpeg could not seek back from a trailing moov to the samples.
        let layout = container == "mp4" ? ["-movflags", "+faststart"] : []
        return encodingArguments + layout + ["-f", container]
    }

    /// Inputs, encoders and their settings: what a file and an HLS packaging of the recipe share.
    public var encodingArguments: [String] {
        var video = ["testsrc2=size=\(size):rate=\(frameRate):duration=\(seconds)"]
        if let sampleAspectRatio { video.append("setsar=\(sampleAspectRatio)") }
        var arguments = [
            "-v", "error", "-y", "-nostdin",
            "-f", "lavfi", "-i", video.joined(separator: ","),
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(sampleRate):duration=\(seconds)",
        ]
        switch streams {
        case .both: arguments += ["-map", "0:v", "-map", "1:a"]
        case .videoOnly: arguments += ["-map", "0:v"]
        case .audioOnly: arguments += ["-map", "1:a"]
        }
        arguments += [
            "-c:v", videoCodec, "-preset", "veryfast", "-pix_fmt", pixelFormat, "-g", "30",
        ]
        if videoCodec == "libx265" {
            arguments += ["-x265-params", "log-level=error:level-idc=3.0"]
        } else {
            arguments += ["-level", "3.0"]
        }
        if let colour {
            arguments += ["-color_trc", colour.transfer, "-color_primaries", colour.primaries, "-colorspace", colour.space]
        }
        arguments += ["-c:a", audioCodec, "-ar", String(sampleRate), "-ac", String(channels)]
        if let sampleFormat { arguments += ["-sample_fmt", sampleFormat] }
        if streams != .videoOnly { arguments += ["-metadata:s:a:0", "language=\(language)"] }
        return arguments
    }

    public var fileExtension: String { container == "mp4" ? "mp4" : "ts" }

    /// The cached file's name: the recipe's name for people, a hash of its arguments for the cache.
    public var fileName: String { "\(name)-\(StableHash.hex(arguments.joined(separator: "\u{1F}"))).\(fileExtension)" }
}

extension MediaRecipe {
    public static let baseline = MediaRecipe()

    /// The baseline with one change, named after it.
    public static func baseline(_ name: String, _ change: (inout MediaRecipe) -> Void) -> MediaRecipe {
        var recipe = MediaRecipe()
        recipe.name = name
        change(&recipe)
        return recipe
    }

    public static let hevc = baseline("hevc") { $0.videoCodec = "libx265" }
    public static let fps25 = baseline("fps25") { $0.frameRate = "25" }
    public static let fps2997 = baseline("fps29.97") { $0.frameRate = "30000/1001" }
    public static let fourByThree = baseline("4x3") { $0.size = "240x180" }
    public static let anamorphic = baseline("anamorphic") {
        $0.size = "240x180"
        $0.sampleAspectRatio = "4/3"
    }
    public static let rate44100 = baseline("44.1kHz") { $0.sampleRate = 44100 }
    public static let surround = baseline("5.1") { $0.channels = 6 }
    public static let tenBit = baseline("10bit") { $0.pixelFormat = "yuv420p10le" }
    public static let hevcSDR10 = baseline("hevc-sdr10") {
        $0.videoCodec = "libx265"
        $0.pixelFormat = "yuv420p10le"
        $0.colour = ("bt709", "bt709", "bt709")
    }
    public static let hevcHLG = baseline("hevc-hlg") {
        $0.videoCodec = "libx265"
        $0.pixelFormat = "yuv420p10le"
        $0.colour = ("arib-std-b67", "bt2020", "bt2020nc")
    }
    public static let hevcPQ = baseline("hevc-pq") {
        $0.videoCodec = "libx265"
        $0.pixelFormat = "yuv420p10le"
        $0.colour = ("smpte2084", "bt2020", "bt2020nc")
    }
    public static let mp4 = baseline("mp4") { $0.container = "mp4" }
    /// HEVC in MP4: the codec string comes from the hvcC box, and ffmpeg's sample entry is hev1.
    public static let hevcMP4 = baseline("hevc-mp4") {
        $0.videoCodec = "libx265"
        $0.container = "mp4"
    }

    /// The base layer of the Dolby Vision fixtures: HEVC Main 10 in MP4, PQ.
    public static let hevcPQMP4 = baseline("hevc-pq-mp4") {
        $0.videoCodec = "libx265"
        $0.pixelFormat = "yuv420p10le"
        $0.colour = ("smpte2084", "bt2020", "bt2020nc")
        $0.container = "mp4"
    }
    /// Apple Lossless in MP4, 16-bit and 24-bit: the same codec at two sample resolutions.
    public static let alac16 = baseline("alac16") {
        $0.container = "mp4"
        $0.audioCodec = "alac"
        $0.sampleFormat = "s16p"
    }
    public static let alac24 = baseline("alac24") {
        $0.container = "mp4"
        $0.audioCodec = "alac"
        $0.sampleFormat = "s32p"
    }
    public static let french = baseline("french") { $0.language = "fra" }

    public static let all: [MediaRecipe] = [
        .baseline, .hevc, .fps25, .fps2997, .fourByThree, .anamorphic, .rate44100, .surround, .tenBit,
        .hevcSDR10, .hevcHLG, .hevcPQ, .mp4, .hevcMP4, .alac16, .alac24,
    ]
}

/// Test media made by `ffmpeg` on first use and kept outside the source tree.
///
/// The folder is `AIRLAB_TEST_CACHE` (the Makefile sets it), else `~/.cache/airlab/test-media`. Files
/// are written under a unique temporary name and renamed into place, so tests running in parallel
/// never see half a file; two that race both generate, and the last rename wins with equal bytes.
public enum TestMedia {
    public static var cacheDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["AIRLAB_TEST_CACHE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/airlab/test-media")
    }

    /// The clip `recipe` makes, generating it first when it is not cached.
    public static func file(_ recipe: MediaRecipe) async throws -> URL {
        try await BlockingWork.run {
            try cached(recipe.fileName) { partial in
                try Tool.run("ffmpeg", recipe.arguments + [partial.path])
            }
        }
    }

    /// How the recipe is cut into an HLS media playlist.
    public enum Packaging: String, Sendable {
        /// MPEG-TS segments.
        case transportStream = "ts"
        /// fMP4 segments after an EXT-X-MAP init section.
        case fragmentedMP4 = "fmp4"
        /// One fMP4 file addressed by EXT-X-BYTERANGE, its init section a byte range too.
        case byteRanges = "fmp4-single"
    }

    /// A folder holding `index.m3u8` and its segments, made by ffmpeg's HLS muxer from `recipe`.
    public static func hls(_ recipe: MediaRecipe, _ packaging: Packaging, segmentSeconds: Int = 1) async throws -> URL {
        var arguments = recipe.encodingArguments + ["-f", "hls", "-hls_time", String(segmentSeconds), "-hls_playlist_type", "vod"]
        switch packaging {
        case .transportStream: arguments += ["-hls_segment_filename", "SEGMENTS/seg%d.ts"]
        case .fragmentedMP4: arguments += ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4", "-hls_segment_filename", "SEGMENTS/seg%d.m4s"]
        case .byteRanges: arguments += ["-hls_segment_type", "fmp4", "-hls_flags", "single_file"]
        }
        let name = "hls-\(recipe.name)-\(packaging.rawValue)-\(StableHash.hex(arguments.joined(separator: "\u{1F}")))"
        let finalArguments = arguments
        return try await BlockingWork.run {
            try cached(name) { folder in
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let resolved = finalArguments.map { $0.replacingOccurrences(of: "SEGMENTS", with: folder.path) }
                try Tool.run("ffmpeg", resolved + [folder.appendingPathComponent("index.m3u8").path])
            }
        }
    }

    /// Where a test reads generated media from.
    public enum Transport: String, CaseIterable, Sendable {
        case file
        /// A real HTTP server on 127.0.0.1 serving the cache folder.
        case http
    }

    /// Runs `body` with a function giving each recipe's input over `transport`: a path, or a URL on a
    /// server that lives as long as `body` runs.
    public static func withInputs(over transport: Transport, _ body: ((MediaRecipe) async throws -> String) async throws -> Void) async throws {
        let server = transport == .http ? try await BlockingWork.server(serving: cacheDirectory) : nil
        defer { server?.stop() }
        try await body { recipe in
            let file = try await TestMedia.file(recipe)
            return server.map { $0.url(file.lastPathComponent).absoluteString } ?? file.path
        }
    }

    /// A scratch folder holding copies of generated HLS folders under the given names, for playlists
    /// a test writes next to them. The copying runs on a thread of its own: on a busy disk it can take
    /// seconds, which on the shared pool would hold up every other test.
    public static func stage(_ folders: [String: URL]) async throws -> Scratch {
        try await BlockingWork.run {
            let scratch = try Scratch()
            for (name, folder) in folders {
                try FileManager.default.copyItem(at: folder, to: scratch.url.appendingPathComponent(name))
            }
            return scratch
        }
    }

    /// Makes `target` (a file or a folder) by running `make` on a temporary path, then renaming.
    /// It blocks: callers run it inside `BlockingWork`.
    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    public static func cached(_ name: String, make: (URL) throws -> Void) throws -> URL {
        let target = cacheDirectory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: target.path) { return target }
        try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        let partial = cacheDirectory.appendingPathComponent(".\(UUID().uuidString).partial")
        defer { try? FileManager.default.removeItem(at: partial) }
        try make(partial)
        try publish(partial, as: target)
        return target
    }

    private static func publish(_ partial: URL, as target: URL) throws {
        // rename(2) replaces a file atomically; for a folder another test may have won the race.
        if rename(partial.path, target.path) != 0, !FileManager.default.fileExists(atPath: target.path) {
            throw TestSupportError("could not move \(partial.path) to \(target.path): errno \(errno)")
        }
    }
}

/// FNV-1a, 64 bits: stable across runs and processes, unlike `Hasher`.
public enum StableHash {
    public static func hex(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }
}

/// Runs the reference tools (`ffmpeg`, `ffprobe`) the tests compare against. It blocks: callers run
/// it inside `BlockingWork`.
public enum Tool {
    /// Runs `tool` from PATH and returns its standard output; a failure carries its standard error.
    @discardableResult
    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    public static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let result = try CommandRunner.run(executableURL: URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments)
        guard result.status == 0 else {
            throw TestSupportError("\(tool) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        return Data(result.stdout.utf8)
    }
}
