import Foundation
import TestSupport
import Testing

/// The location rule against the real daemon: an http playlist can never make airlabd read a local
/// file, with or without --allow-file-urls, and the refusal tells a remote sender nothing about the
/// receiver's file system.
@Suite("airlabd never reads a local file an http playlist names")
struct FileReferenceTests {
    /// Which reference of the served playlist points at the local file.
    enum Reference: String, CaseIterable, CustomTestStringConvertible {
        case segment, initSection

        var testDescription: String { rawValue }
    }

    /// A media playlist served over http whose segment, or whose EXT-X-MAP, is the `file:` URL of a
    /// real media file in `local`, taken from ffmpeg-made HLS: read, it would play.
    struct Fixture {
        let server: TestHTTPServer
        let served: Scratch
        let local: Scratch
        /// The local file the playlist names; present until a test removes it.
        let file: URL

        var playlist: String { server.url("show.m3u8").absoluteString }

        static func with(_ reference: Reference, _ body: (Fixture) async throws -> Void) async throws {
            let hls = try await TestMedia.hls(.baseline, reference == .segment ? .transportStream : .fragmentedMP4)
            let served = try await TestMedia.stage(["media": hls])
            defer { served.remove() }
            let local = try Scratch()
            defer { local.remove() }
            let name = reference == .segment ? "seg0.ts" : "init.mp4"
            let file = try local.write("private/\(name)", try Data(contentsOf: hls.appendingPathComponent(name)))
            let playlist = switch reference {
            case .segment:
                "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:1,\n\(file.absoluteString)\n#EXT-X-ENDLIST\n"
            case .initSection:
                "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-MAP:URI=\"\(file.absoluteString)\"\n#EXTINF:1,\nmedia/seg0.m4s\n#EXT-X-ENDLIST\n"
            }
            try served.write("show.m3u8", playlist)
            // The same playlist read from the local folder, where the same reference is allowed.
            try local.write("show.m3u8", playlist.replacingOccurrences(of: "media/seg0.m4s", with: hls.appendingPathComponent("seg0.m4s").path))
            let server = try await BlockingWork.server(serving: served.url)
            defer { server.stop() }
            try await body(Fixture(server: server, served: served, local: local, file: file))
        }
    }

    @Test(
        "An http playlist whose segment or init section is a file: URL is refused 422 by the rule, byte for byte the same whether the file exists or not, with and without --allow-file-urls",
        arguments: Reference.allCases, [false, true])
    func fileReferenceIsRefused(reference: Reference, allowFileURLs: Bool) async throws {
        try await Fixture.with(reference) { fixture in
            let flags = ["--profile", "apple-tv-4k", "--port", "0"] + (allowFileURLs ? ["--allow-file-urls"] : [])
            try await withDaemon(flags) { daemon in
                let body: [String: Any] = ["url": fixture.playlist, "detached": true]
                let present = try await daemon.send("POST", "/play", json: body)
                try FileManager.default.removeItem(at: fixture.file)
                let absent = try await daemon.send("POST", "/play", json: body)

                #expect(present.status == 422, "\(present)")
                #expect(absent.status == 422, "\(absent)")
                #expect(present.body == absent.body)
                #expect(present.text.contains("a local file, which a resource fetched over the network may not reference"), "\(present)")
                #expect(!present.text.contains(fixture.file.path))
                #expect(!present.text.contains("no such file"))
            }
        }
    }

    @Test("The same file: reference in a local playlist plays when airlabd allows file URLs: the media is real, so only the rule refused it")
    func localPlaylistMayReferenceLocalFiles() async throws {
        for reference in Reference.allCases {
            try await Fixture.with(reference) { fixture in
                try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--allow-file-urls"]) { daemon in
                    let reply = try await daemon.send(
                        "POST", "/play", json: ["url": fixture.local.url.appendingPathComponent("show.m3u8").path, "detached": true])
                    #expect(reply.status == 200, "\(reference): \(reply)")
                }
            }
        }
    }
}
