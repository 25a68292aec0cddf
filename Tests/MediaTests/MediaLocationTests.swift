import Media
import TestSupport
import Testing

@Suite("Media locations")
struct MediaLocationTests {
    @Test(
        "A URI in a playlist resolves against the playlist's location",
        arguments: [
            ("http://host/a/b/master.m3u8", "v/index.m3u8", "http://host/a/b/v/index.m3u8"),
            ("http://host/a/b/master.m3u8", "../c/seg.ts", "http://host/a/c/seg.ts"),
            ("http://host/a/b/master.m3u8", "/root.ts", "http://host/root.ts"),
            ("http://host/a/master.m3u8?token=1", "seg.ts?token=2", "http://host/a/seg.ts?token=2"),
            ("http://host/a/master.m3u8", "https://cdn/x.ts", "https://cdn/x.ts"),
            ("/media/a/master.m3u8", "v/index.m3u8", "/media/a/v/index.m3u8"),
            ("/media/a/master.m3u8", "../b/seg%20one.ts", "/media/b/seg one.ts"),
            ("/media/a/master.m3u8", "/elsewhere/seg.ts", "/elsewhere/seg.ts"),
            ("file:///media/a/master.m3u8", "seg.ts", "/media/a/seg.ts"),
        ])
    func resolution(base: String, reference: String, expected: String) async throws {
        #expect(try MediaLocation(base).resolving(reference).ffmpegURL == expected)
    }

    @Test("Only paths, file:, http: and https: are accepted; any other scheme is refused by name")
    func schemes() async throws {
        #expect(try MediaLocation("segments/a.ts").isRemote == false)
        #expect(try MediaLocation("HTTPS://host/a.ts").isRemote)
        for input in ["rtmp://host/live", "ftp://host/a.ts", "concat:a.ts|b.ts", "data:video/mp2t;base64,AAAA"] {
            let scheme = String(input.prefix { $0 != ":" })
            await #expect(throws: MediaError(input: input, reason: .unsupportedScheme(scheme))) { try MediaLocation(input) }
        }
    }
}
