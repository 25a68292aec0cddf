import Foundation
import Testing
import TestSupport
import Transport
@testable import Lab

/// The folder server `cast` starts for a local playlist, on 127.0.0.1, fetched with Transport, the one HTTP client.
@Suite("Folder server")
struct FolderServerTests {
    func withServer(_ body: (FolderServer, Scratch) async throws -> Void) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("show/show.m3u8", "#EXTM3U\n")
        try scratch.write("show/ads/ad 1.m3u8", "#EXTM3U\n#EXT-X-ENDLIST\n")
        try scratch.write("show/seg.ts", Data((0..<100).map { UInt8($0) }))
        try scratch.write("show/.hidden", "secret")
        try scratch.write("secret.txt", "outside")
        try FileManager.default.createSymbolicLink(
            atPath: scratch.url.appendingPathComponent("show/escape.m3u8").path, withDestinationPath: scratch.url.appendingPathComponent("secret.txt").path)
        let server = FolderServer(folder: scratch.url.appendingPathComponent("show"), address: "127.0.0.1")
        try server.start()
        defer { server.stop() }
        try await body(server, scratch)
    }

    func get(
        _ server: FolderServer, _ target: String, method: TransferRequest.Method = .get, headers: [(name: String, value: String)] = []
    ) async throws -> TransferResult {
        let result = await TransferLoop.shared.fetch(TransferRequest(
            url: "http://127.0.0.1:\(server.port)\(target)", method: method, headers: headers, totalTimeout: .seconds(60), bodyLimit: 1 << 20))
        if let error = result.error { throw error }
        return result
    }

    @Test("Files in the folder are served with HLS content types, at the URL the cast sends")
    func serves() async throws {
        try await withServer { server, scratch in
            let url = server.url(for: scratch.url.appendingPathComponent("show/ads/ad 1.m3u8"))
            #expect(url == "http://127.0.0.1:\(server.port)/ads/ad%201.m3u8")
            let playlist = try await get(server, "/ads/ad%201.m3u8")
            #expect(playlist.status == 200 && playlist.text == "#EXTM3U\n#EXT-X-ENDLIST\n")
            #expect(playlist.header("Content-Type") == "application/vnd.apple.mpegurl")
            let segment = try await get(server, "/seg.ts")
            #expect(segment.header("Content-Type") == "video/mp2t" && segment.body?.count == 100)
        }
    }

    @Test("Nothing outside the folder, hidden, or a folder itself is served")
    func confined() async throws {
        try await withServer { server, _ in
            for target in ["/../secret.txt", "/%2e%2e/secret.txt", "/ads/../../secret.txt", "/.hidden", "/escape.m3u8", "/ads", "/", "/missing.ts"] {
                let response = try await get(server, target)
                #expect(response.status == 404, "\(target) answered \(response.status)")
                #expect(!response.text.contains("outside") && !response.text.contains("secret"))
            }
            #expect(try await get(server, "/show.m3u8", method: .post).status == 405)
        }
    }

    @Test("A byte range is answered 206 with exactly those bytes; an unsatisfiable one 416")
    func ranges() async throws {
        try await withServer { server, _ in
            let middle = try await get(server, "/seg.ts", headers: [("Range", "bytes=10-19")])
            #expect(middle.status == 206 && middle.body == Data((10..<20).map { UInt8($0) }))
            #expect(middle.header("Content-Range") == "bytes 10-19/100")
            let tail = try await get(server, "/seg.ts", headers: [("Range", "bytes=-5")])
            #expect(tail.body == Data((95..<100).map { UInt8($0) }))
            #expect(try await get(server, "/seg.ts", headers: [("Range", "bytes=200-")]).status == 416)
        }
    }

    @Test("A range to Int.max is the rest of the file, and the server goes on serving")
    func rangeToTheLimit() async throws {
        try await withServer { server, _ in
            let rest = try await get(server, "/seg.ts", headers: [("Range", "bytes=90-9223372036854775807")])
            #expect(rest.status == 206 && rest.body == Data((90..<100).map { UInt8($0) }))
            #expect(rest.header("Content-Range") == "bytes 90-99/100")
            #expect(try await get(server, "/seg.ts", headers: [("Range", "bytes=9223372036854775807-")]).status == 416)
            #expect(try await get(server, "/seg.ts").status == 200)
        }
    }
}

extension TransferResult {
    /// The body as UTF-8 text.
    var text: String { String(decoding: body ?? Data(), as: UTF8.self) }
}
