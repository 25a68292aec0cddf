import Foundation
import HLS
import Testing
import TestSupport
@testable import Loading

@Suite("Loading local files")
struct LocalLoadingTests {
    let loader = ResourceLoader(timeout: 20)

    @Test("A local playlist is read by path and by file: URL and parsed")
    func readsLocalPlaylist() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("media.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n")

        for argument in [file.path, file.absoluteString] {
            let loaded = try await loader.loadPlaylist(try ResourceLocation(argument: argument), allowingLocalFiles: true)
            #expect(loaded.result.mediaPlaylist?.segments.count == 1)
            #expect(loaded.finalLocation.url.path == file.path)
        }
    }

    @Test("A missing file is an error that names the path and says it was not found")
    func missingFile() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.url.appendingPathComponent("absent.m3u8").path
        let error = await #expect(throws: LoadingError.self) {
            try await loader.loadPlaylist(try ResourceLocation(argument: path), allowingLocalFiles: true)
        }
        #expect(error?.reason == .notFound)
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("not found") == true)
    }

    @Test("A directory is refused as a directory, not a regular file")
    func directory() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let error = await #expect(throws: LoadingError.self) {
            try await loader.loadPlaylist(try ResourceLocation(argument: scratch.url.path), allowingLocalFiles: true)
        }
        #expect(error?.reason == .directory)
        #expect(error?.description == "\(scratch.url.path): a directory, not a regular file")
    }

    @Test("A 200 MB sparse file is refused by its size without being read into memory")
    func hugeSparseFile() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.writeSparse("huge.m3u8", prefix: "#EXTM3U\n", size: 200_000_000)

        let peakBefore = try Self.peakResidentBytes()
        let error = await #expect(throws: LoadingError.self) {
            try await loader.loadPlaylist(try ResourceLocation(argument: file.path), allowingLocalFiles: true)
        }
        #expect(error?.reason == .tooLarge(limit: PlaylistParser.maximumSize, size: 200_000_000))
        #expect(error?.description.contains("200000000 bytes") == true)
        // Reading the file would have raised the process's peak by 200 MB.
        #expect(try Self.peakResidentBytes() - peakBefore < 32 << 20)
    }

    @Test("An empty file and a binary file load, and the parser says why they are not playlists")
    func emptyAndBinaryFiles() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let empty = try scratch.write("empty.m3u8", Data())
        let binary = try scratch.write("segment.ts", Data([0x47, 0x00, 0x11, 0x10, 0x00, 0xFF]))

        let emptyResult = try await loader.loadPlaylist(try ResourceLocation(argument: empty.path), allowingLocalFiles: true).result
        #expect(emptyResult.playlist == nil)
        #expect(emptyResult.diagnostics.map(\.code) == [.playlistEmpty])
        let binaryResult = try await loader.loadPlaylist(try ResourceLocation(argument: binary.path), allowingLocalFiles: true).result
        #expect(binaryResult.playlist == nil)
        #expect(binaryResult.diagnostics.map(\.code) == [.playlistBinary])
    }

    @Test("A local input is refused when the caller does not allow local files")
    func localFilesNotAllowed() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("media.m3u8", "#EXTM3U\n")
        let error = await #expect(throws: LoadingError.self) {
            try await loader.loadPlaylist(try ResourceLocation(argument: file.path), allowingLocalFiles: false)
        }
        #expect(error?.reason == .localInputNotAllowed)
    }

    @Test("An asset list larger than 1 MiB is refused")
    func oversizedAssetList() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("list.json", Data(repeating: UInt8(ascii: " "), count: (1 << 20) + 1))
        let error = await #expect(throws: LoadingError.self) {
            try await loader.loadAssetList(try ResourceLocation(argument: file.path), allowingLocalFiles: true)
        }
        #expect(error?.reason == .tooLarge(limit: 1 << 20, size: (1 << 20) + 1))
    }

    @Test("Schemes other than http, https and file are refused with the scheme named", arguments: ["ftp://example.com/a.m3u8", "data:,hello", "rtsp://camera/stream"])
    func unsupportedSchemes(argument: String) throws {
        #expect(throws: LoadingError.self) { try ResourceLocation(argument: argument) }
        do {
            _ = try ResourceLocation(argument: argument)
        } catch {
            #expect(error.description.hasPrefix(argument))
            #expect(error.description.contains("unsupported URL scheme"))
        }
    }

    @Test("Relative references resolve against the document's location, whatever its kind")
    func relativeReferences() throws {
        let local = try ResourceLocation(argument: "/streams/show/media.m3u8")
        #expect(try local.resolving("ads/1.json").url.path == "/streams/show/ads/1.json")
        #expect(try local.resolving("https://ads.example.com/a.m3u8").isLocal == false)
        let remote = try ResourceLocation(argument: "https://cdn.example.com/show/media.m3u8?token=1")
        #expect(try remote.resolving("../ads/a.m3u8").url.absoluteString == "https://cdn.example.com/ads/a.m3u8")
        #expect(try remote.resolving("/root.json").url.absoluteString == "https://cdn.example.com/root.json")
        #expect(throws: LoadingError.self) { try remote.resolving("ftp://cdn.example.com/a.m3u8") }
    }

    /// VmHWM: the most memory the process has held at once.
    static func peakResidentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }
}
