import Foundation
import Media
import MediaValues
import TestSupport
import Testing

/// A segment's picture, decoded and encoded as JPEG with FFmpeg's libraries.
@Suite("The still picture of a segment")
struct StillPictureTests {
    @Test("An H.264 and an HEVC segment each give a JPEG of the width asked for")
    func pictures() async throws {
        let h264 = try Data(contentsOf: try await TestMedia.file(.baseline))
        let hevc = try Data(contentsOf: try await TestMedia.file(.hevc))
        let first = try await StillPicture.jpeg(of: h264, input: "baseline.ts", width: 160, timeout: 10)
        let second = try await StillPicture.jpeg(of: hevc, input: "hevc.ts", width: 160, timeout: 10)
        for jpeg in [first, second] {
            #expect(jpeg.starts(with: [0xFF, 0xD8]) && jpeg.suffix(2) == Data([0xFF, 0xD9]))
        }
        // ffmpeg reads the picture back at the width asked for.
        let scratch = try Scratch()
        defer { scratch.remove() }
        for (name, jpeg) in [("h264.jpg", first), ("hevc.jpg", second)] {
            let file = scratch.url.appendingPathComponent(name)
            try jpeg.write(to: file)
            let probed = try await BlockingWork.run {
                String(decoding: try Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=width", "-of", "csv=p=0", file.path]), as: UTF8.self)
            }
            #expect(probed.trimmingCharacters(in: .whitespacesAndNewlines) == "160", "\(name)")
        }
    }

    @Test("A 10-bit segment gives a picture too: libswscale converts whatever the decoder gives")
    func tenBit() async throws {
        let bytes = try Data(contentsOf: try await TestMedia.file(.tenBit))
        let jpeg = try await StillPicture.jpeg(of: bytes, input: "10bit.ts", width: 160, timeout: 10)
        #expect(jpeg.starts(with: [0xFF, 0xD8]) && jpeg.suffix(2) == Data([0xFF, 0xD9]))
    }

    @Test("Bytes that are no picture are an error, never a crash", arguments: [
        Data(), Data(repeating: 0x47, count: 188 * 20), Data("#EXTM3U\n".utf8), Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
    ])
    func noPicture(_ bytes: Data) async throws {
        await #expect(throws: MediaError.self) { try await StillPicture.jpeg(of: bytes, input: "segment.ts", width: 160, timeout: 5) }
    }

    @Test("A segment cut short after its first packets is an error or a picture, never a crash")
    func truncated() async throws {
        let h264 = try Data(contentsOf: try await TestMedia.file(.baseline))
        for length in [188, 188 * 10, 188 * 100] {
            _ = try? await StillPicture.jpeg(of: h264.prefix(length), input: "segment.ts", width: 160, timeout: 5)
        }
    }
}
