import Casting
import Foundation

/// Probes 20 distinct local TS segments in one process and compares with spawning
/// `ffprobe -show_streams -of json` on each in the same run.
///
/// Target (issue 3): at least 10x faster per asset. Each probe is uncached (`MediaProbe`, not
/// `ProbeCache`): the cache would turn every repetition after the first into a dictionary lookup.
/// Each goes the product's way: the loader reads the file, FFmpeg demuxes the bytes on a probe thread.
struct ProbeBenchmark: Benchmark {
    let name = "probe"
    private static let segmentCount = 20
    private var segments: [URL] = []
    private var ffprobe = ""

    mutating func setUp(_ context: BenchmarkContext) throws {
        let ffmpeg = try BenchmarkContext.executable("ffmpeg", package: "ffmpeg")
        ffprobe = try BenchmarkContext.executable("ffprobe", package: "ffmpeg")
        let folder = context.workDirectory.appendingPathComponent("probe-segments")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        segments = try (0..<Self.segmentCount).map { index in
            // Distinct content per segment (picture pattern offset, tone pitch), a typical ladder rung:
            // 2 s of 640x360 H.264 at 30 fps with stereo AAC.
            let arguments = [
                "-v", "error", "-y", "-nostdin",
                "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=2,hue=h=\(index * 18)",
                "-f", "lavfi", "-i", "sine=frequency=\(220 + index * 20):sample_rate=48000:duration=2",
                "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "veryfast", "-g", "60",
                "-c:a", "aac", "-ac", "2", "-f", "mpegts",
            ]
            let segment = folder.appendingPathComponent(String(format: "segment-%02d.ts", index))
            if !FileManager.default.fileExists(atPath: segment.path) {
                let partial = folder.appendingPathComponent(".\(UUID().uuidString).partial")
                _ = try context.runProcess(ffmpeg, arguments + [partial.path])
                try FileManager.default.moveItem(at: partial, to: segment)
            }
            return segment
        }
    }

    mutating func run(_ context: BenchmarkContext) throws -> [String] {
        var streams = 0
        let paths = segments.map(\.path)
        let inProcess = try context.fastest(repetitions: 5) {
            streams = try BenchmarkContext.wait {
                var count = 0
                for path in paths {
                    count += try await MediaProbe.probe(path).streams.count
                }
                return count
            }
        }
        guard streams == 2 * segments.count else {
            throw BenchmarkError("expected 2 streams in each segment, found \(streams) in all")
        }
        let reference = try context.fastest(repetitions: 3) {
            for segment in segments {
                _ = try context.runProcess(ffprobe, ["-v", "error", "-show_streams", "-of", "json", segment.path])
            }
        }
        let perProbe = inProcess / Double(segments.count)
        let perFFprobe = reference / Double(segments.count)
        let lines = [
            String(format: "airlab: %d segments in %.1f ms = %.2f ms per probe", segments.count, inProcess * 1000, perProbe * 1000),
            String(format: "ffprobe -show_streams -of json: %.1f ms = %.2f ms per probe", reference * 1000, perFFprobe * 1000),
            String(format: "ratio: %.1fx faster than ffprobe per asset (target >= 10x)", perFFprobe / perProbe),
        ]
        lines.forEach { print($0) }
        return lines
    }
}
