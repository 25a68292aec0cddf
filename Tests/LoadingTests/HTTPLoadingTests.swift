import Foundation
import HLS
import Testing
import TestSupport
@testable import Loading

@Suite("Loading over HTTP from a real server on 127.0.0.1")
struct HTTPLoadingTests {
    static let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n"
    let loader = ResourceLoader(timeout: 20)

    /// Runs `body` against a server serving a scratch folder holding `files`, then stops both.
    func withServer(_ files: [String: String] = [:], _ body: (TestHTTPServer, Scratch) async throws -> Void) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for (name, text) in files { try scratch.write(name, text) }
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }
        try await body(server, scratch)
    }

    func location(_ server: TestHTTPServer, _ path: String) throws -> ResourceLocation {
        try ResourceLocation(url: server.url(path))
    }

    @Test("A playlist is fetched over HTTP and parsed")
    func fetchesPlaylist() async throws {
        try await withServer(["show/media.m3u8": Self.playlist]) { server, _ in
            let loaded = try await loader.loadPlaylist(try location(server, "show/media.m3u8"), allowingLocalFiles: false)
            #expect(loaded.result.mediaPlaylist?.segments.count == 1)
        }
    }

    @Test("Answers outside 2xx are errors that name the URL and the status", arguments: [404, 500])
    func httpStatus(status: Int) async throws {
        try await withServer { server, _ in
            let url = server.url("_status/\(status)")
            let error = await #expect(throws: LoadingError.self) {
                try await loader.loadPlaylist(try ResourceLocation(url: url), allowingLocalFiles: false)
            }
            #expect(error?.reason == .httpStatus(status))
            #expect(error?.description.contains(url.absoluteString) == true)
            #expect(error?.description.contains("HTTP \(status)") == true)
        }
    }

    @Test("A missing file on the server is a 404")
    func missingOnServer() async throws {
        try await withServer { server, _ in
            let error = await #expect(throws: LoadingError.self) {
                try await loader.loadPlaylist(try location(server, "absent.m3u8"), allowingLocalFiles: false)
            }
            #expect(error?.reason == .httpStatus(404))
        }
    }

    @Test("A server that never answers times out after the configured second")
    func hangingServer() async throws {
        try await withServer { server, _ in
            let error = await #expect(throws: LoadingError.self) {
                try await ResourceLoader(timeout: 1).loadPlaylist(try location(server, "_hang"), allowingLocalFiles: false)
            }
            #expect(error?.reason == .timedOut(1))
            #expect(error?.description.contains("timed out after 1 s") == true)
        }
    }

    @Test("Five redirects are followed and relative URIs then resolve against the final URL")
    func followsFiveRedirects() async throws {
        try await withServer(["show/media.m3u8": Self.playlist]) { server, _ in
            let loaded = try await loader.loadPlaylist(try location(server, "_redirect/4/show/media.m3u8"), allowingLocalFiles: false)
            #expect(loaded.result.mediaPlaylist?.segments.count == 1)
            #expect(loaded.finalLocation.url.path == "/show/media.m3u8")
            #expect(try loaded.finalLocation.resolving("ad.m3u8").url.path == "/show/ad.m3u8")
        }
    }

    @Test("A sixth redirect is refused")
    func refusesSixthRedirect() async throws {
        try await withServer(["media.m3u8": Self.playlist]) { server, _ in
            let error = await #expect(throws: LoadingError.self) {
                try await loader.loadPlaylist(try location(server, "_redirect/5/media.m3u8"), allowingLocalFiles: false)
            }
            #expect(error?.reason == .tooManyRedirects(5))
        }
    }

    @Test("A redirect to a file: URL is refused, so a server cannot make us read local files")
    func refusesRedirectToFile() async throws {
        try await withServer(["media.m3u8": Self.playlist]) { server, scratch in
            let target = scratch.url.appendingPathComponent("media.m3u8").absoluteString
            let error = await #expect(throws: LoadingError.self) {
                try await loader.loadPlaylist(try location(server, "_redirect-to?\(target)"), allowingLocalFiles: true)
            }
            #expect(error?.reason == .unsupportedScheme("file"))
        }
    }

    @Test("A body whose Content-Length exceeds the cap is refused")
    func refusesDeclaredLargeBody() async throws {
        try await withServer(["list.json": String(repeating: " ", count: 4096)]) { server, _ in
            let error = await #expect(throws: LoadingError.self) {
                try await loader.load(try location(server, "list.json"), maximumSize: 1024, allowingLocalFiles: false)
            }
            #expect(error?.reason == .tooLarge(limit: 1024, size: 4096))
        }
    }

    @Test("A body without Content-Length is cut off at the cap while it streams")
    func capsStreamedBody() async throws {
        try await withServer { server, _ in
            let error = await #expect(throws: LoadingError.self) {
                try await loader.loadAssetList(try location(server, "_stream/3000000"), allowingLocalFiles: false)
            }
            #expect(error?.reason == .tooLarge(limit: 1 << 20, size: nil))
        }
    }

    @Test("A body without Content-Length under the cap is read whole")
    func readsStreamedBody() async throws {
        try await withServer { server, _ in
            let resource = try await loader.load(try location(server, "_stream/100000"), maximumSize: 1 << 20, allowingLocalFiles: false)
            #expect(resource.data.count == 100_000)
        }
    }

    @Test("A port nobody listens on is a network error naming the URL")
    func connectionRefused() async throws {
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let url = "http://127.0.0.1:\(closed.port)/media.m3u8"
        let error = await #expect(throws: LoadingError.self) {
            try await loader.loadPlaylist(try ResourceLocation(argument: url), allowingLocalFiles: false)
        }
        #expect(error?.description.hasPrefix(url) == true)
    }

    @Test("A byte range is read from a server that ignores Range, cut to exactly the bytes asked for")
    func rangeFromServerThatSendsEverything() async throws {
        try await withServer(["media.m4s": "0123456789"]) { server, _ in
            let referrer = ResourceReferrer.input(allowingLocalFiles: false)
            let middle = try await loader.load(
                try location(server, "media.m4s"), maximumSize: 100, referrer: referrer, range: ResourceRange(offset: 3, length: 4))
            #expect(middle.data == Data("3456".utf8))
            let tail = try await loader.load(
                try location(server, "media.m4s"), maximumSize: 100, referrer: referrer, range: ResourceRange(offset: 8, length: 4))
            #expect(tail.data == Data("89".utf8))
        }
    }

    @Test("Keeping the first bytes of a long streamed body stops at the cap and succeeds")
    func keepsFirstBytesOfStream() async throws {
        try await withServer { server, _ in
            let resource = try await loader.load(
                try location(server, "_stream/3000000"), maximumSize: 100_000, referrer: .input(allowingLocalFiles: false),
                overflow: .keepFirst)
            #expect(resource.data.count == 100_000)
            #expect(resource.isTruncated)
        }
    }

    @Test("A deadline nearer than the timeout ends the transfer at the deadline, as a timeout")
    func deadlineBoundsTheTransfer() async throws {
        try await withServer { server, _ in
            let clock = ContinuousClock()
            let started = clock.now
            // The timeout is an hour, so only the deadline can end the transfer within the test: half
            // an hour of margin that no loaded machine uses up, where a bound of seconds could be.
            var bounded = ResourceLoader(timeout: 3_600)
            bounded.deadline = started + .seconds(1)
            let error = await #expect(throws: LoadingError.self) {
                try await bounded.loadPlaylist(try location(server, "_hang"), referrer: .input(allowingLocalFiles: false))
            }
            #expect(error?.reason == .timedOut(3_600))
            #expect(clock.now - started < .seconds(1_800))

            let passed = ResourceLoader(timeout: 60, deadline: clock.now)
            await #expect(throws: LoadingError.self) {
                try await passed.loadPlaylist(try location(server, "show.m3u8"), referrer: .input(allowingLocalFiles: false))
            }
        }
    }
}
