import Foundation
import HLS
import Testing
import TestSupport
@testable import Loading

@Suite("Resolving interstitial durations from asset lists and asset playlists")
struct AssetDurationResolverTests {
    let resolver = AssetDurationResolver(loader: ResourceLoader(timeout: 20))

    /// A VOD media playlist of segments of the given durations.
    static func vod(_ durations: [Double], endList: Bool = true) -> String {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n"
        for (index, duration) in durations.enumerated() { text += "#EXTINF:\(duration),\nseg\(index).ts\n" }
        return text + (endList ? "#EXT-X-ENDLIST\n" : "")
    }

    /// The interstitial events of a primary playlist whose date ranges carry `assets` (`X-ASSET-URI="…"` and the like).
    static func events(_ assets: [String: String]) throws -> [InterstitialEvent] {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n"
        for (id, asset) in assets.sorted(by: { $0.key < $1.key }) {
            text += "#EXT-X-DATERANGE:ID=\"\(id)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-01-01T00:00:06Z\",\(asset)\n"
        }
        text += "#EXTINF:6,\na.ts\n#EXTINF:6,\nb.ts\n#EXT-X-ENDLIST\n"
        return try #require(PlaylistParser.parse(text).mediaPlaylist).interstitialEvents().events
    }

    /// Serves `files`, resolves `assets` as if the playlist lived at /show/media.m3u8 on that server.
    func resolve(_ assets: [String: String], serving files: [String: String]) async throws -> AssetResolution {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for (name, text) in files { try scratch.write(name, text) }
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }
        return await resolver.resolve(try Self.events(assets), playlist: try ResourceLocation(url: server.url("show/media.m3u8")))
    }

    @Test("An asset list gives the DURATION of each listed asset, relative URIs resolved against the list")
    func assetListDurations() async throws {
        let resolution = try await resolve(
            ["break": "X-ASSET-LIST=\"ads/list.json\""],
            serving: [
                "show/ads/list.json": #"{"ASSETS": [{"URI": "a.m3u8", "DURATION": 10}, {"URI": "/b.m3u8", "DURATION": 20.5}]}"#,
                "show/ads/a.m3u8": Self.vod([5, 5]), "b.m3u8": Self.vod([20.5]),
            ])
        #expect(resolution.durations["break"] == KnownDuration(assetDurations: [10, 20.5], source: .assetList))
        #expect(resolution.diagnostics.isEmpty)
        let base = resolution.assets["break"]?.first?.uri.components(separatedBy: "/show/").first ?? "?"
        #expect(resolution.assets["break"] == [
            ResolvedAsset(uri: "\(base)/show/ads/a.m3u8", duration: 10), ResolvedAsset(uri: "\(base)/b.m3u8", duration: 20.5),
        ])
    }

    @Test("An asset playlist gives the sum of its EXTINF durations")
    func assetPlaylistDuration() async throws {
        let resolution = try await resolve(["ad": "X-ASSET-URI=\"ad.m3u8\""], serving: ["show/ad.m3u8": Self.vod([5, 5, 4.5])])
        #expect(resolution.durations["ad"] == KnownDuration(assetDurations: [14.5], source: .assetPlaylist))
        #expect(resolution.diagnostics.isEmpty)
    }

    @Test("A multivariant asset gives the duration of its first variant's media playlist")
    func multivariantAsset() async throws {
        let multivariant = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.64001f,mp4a.40.2"
            low/prog.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=3000000,CODECS="avc1.640028,mp4a.40.2"
            high/prog.m3u8

            """
        let resolution = try await resolve(
            ["ad": "X-ASSET-URI=\"ad/main.m3u8\""],
            serving: ["show/ad/main.m3u8": multivariant, "show/ad/low/prog.m3u8": Self.vod([4, 4]), "show/ad/high/prog.m3u8": Self.vod([1])])
        #expect(resolution.durations["ad"] == KnownDuration(assetDurations: [8], source: .assetPlaylist))
    }

    @Test("An asset list that cannot load cancels the break with resume offset 0, as assetlist.unloadable")
    func unloadableAssetList() async throws {
        let resolution = try await resolve(["break": "X-ASSET-LIST=\"missing.json\""], serving: [:])
        #expect(resolution.durations["break"]?.failure?.contains("HTTP 404") == true)
        #expect(resolution.durations["break"]?.assetDurations == [])
        let diagnostic = try #require(resolution.diagnostics.first)
        #expect(resolution.diagnostics.count == 1)
        #expect(diagnostic.code == .assetListUnloadable)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.line == 4)
        #expect(diagnostic.message.contains("missing.json: the server answered HTTP 404"))
        #expect(diagnostic.message.contains("resume offset 0"))
    }

    @Test("An asset that cannot load cancels the break with resume offset 0, as asset.unloadable")
    func unloadableAsset() async throws {
        let resolution = try await resolve(["ad": "X-ASSET-URI=\"ad.m3u8\""], serving: [:])
        #expect(resolution.durations["ad"]?.failure != nil)
        #expect(resolution.durations["ad"]?.source == .assetPlaylist)
        #expect(resolution.diagnostics.map(\.code) == [.assetUnloadable])
        #expect(resolution.diagnostics.first?.message.contains("resume offset 0") == true)
    }

    @Test("A file that is not a playlist is an unloadable asset")
    func assetNotAPlaylist() async throws {
        let resolution = try await resolve(["ad": "X-ASSET-URI=\"ad.m3u8\""], serving: ["show/ad.m3u8": "<html>gateway</html>"])
        #expect(resolution.diagnostics.map(\.code) == [.assetUnloadable])
        #expect(resolution.diagnostics.first?.message.contains("#EXTM3U") == true)
    }

    @Test("A failed asset inside a list is skipped and the break keeps the others")
    func failedAssetInListIsSkipped() async throws {
        let resolution = try await resolve(
            ["break": "X-ASSET-LIST=\"list.json\""],
            serving: [
                "show/list.json": #"{"ASSETS": [{"URI": "gone.m3u8", "DURATION": 10}, {"URI": "ok.m3u8", "DURATION": 15}]}"#,
                "show/ok.m3u8": Self.vod([15]),
            ])
        #expect(resolution.durations["break"] == KnownDuration(assetDurations: [15], source: .assetList))
        #expect(resolution.assets["break"]?.map { $0.failure?.contains("HTTP 404") } == [true, nil])
        #expect(resolution.diagnostics.map(\.code) == [.assetUnloadable])
        #expect(resolution.diagnostics.first?.severity == .warning)
        #expect(resolution.diagnostics.first?.message.contains("skips it") == true)
    }

    @Test("An asset playlist that is not VOD is reported as asset.not-vod and gives no duration")
    func liveAsset() async throws {
        let resolution = try await resolve(["ad": "X-ASSET-URI=\"ad.m3u8\""], serving: ["show/ad.m3u8": Self.vod([6, 6], endList: false)])
        #expect(resolution.durations["ad"] == nil)
        #expect(resolution.diagnostics.map(\.code) == [.assetNotVOD])
    }

    @Test("An empty asset list is a known duration of nothing, reported as assetlist.empty")
    func emptyAssetList() async throws {
        let resolution = try await resolve(["break": "X-ASSET-LIST=\"list.json\""], serving: ["show/list.json": #"{"ASSETS": []}"#])
        #expect(resolution.durations["break"] == KnownDuration(assetDurations: [], source: .assetList))
        #expect(resolution.diagnostics.map(\.code) == [.assetListEmpty])
    }

    @Test("Several events resolve together and their diagnostics come back in event order")
    func severalEvents() async throws {
        let resolution = try await resolve(
            ["a": "X-ASSET-URI=\"missing-a.m3u8\"", "b": "X-ASSET-URI=\"ok.m3u8\"", "c": "X-ASSET-LIST=\"missing-c.json\""],
            serving: ["show/ok.m3u8": Self.vod([3])])
        #expect(resolution.diagnostics.map(\.code) == [.assetUnloadable, .assetListUnloadable])
        #expect(resolution.durations["b"]?.assetDurations == [3])
        #expect(resolution.durations.filter { $0.value.failure != nil }.keys.sorted() == ["a", "c"])
    }

    @Test("A playlist fetched over HTTP cannot make the resolver read a local file")
    func remotePlaylistCannotReachLocalFiles() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let local = try scratch.write("ad.m3u8", Self.vod([5]))
        let resolution = try await resolve(["ad": "X-ASSET-URI=\"\(local.absoluteString)\""], serving: [:])
        #expect(resolution.durations["ad"]?.failure?.contains("a local file") == true)
        #expect(resolution.diagnostics.first?.message.contains("a local file") == true)
    }

    @Test("A local playlist's relative assets are read from local files")
    func localPlaylistReadsLocalAssets() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("ads/ad.m3u8", Self.vod([7]))
        let playlist = try ResourceLocation(argument: scratch.url.appendingPathComponent("media.m3u8").path)
        let resolution = await resolver.resolve(try Self.events(["ad": "X-ASSET-URI=\"ads/ad.m3u8\""]), playlist: playlist)
        #expect(resolution.durations["ad"] == KnownDuration(assetDurations: [7], source: .assetPlaylist))
    }

    @Test("No more loads run at once than the bound allows")
    func boundedConcurrency() async throws {
        let slots = LoadSlots(4)
        let gauge = ConcurrencyGauge()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    _ = try? await slots.run { () async throws(LoadingError) -> Int in
                        await gauge.enter()
                        try? await Task.sleep(for: .milliseconds(10))
                        await gauge.leave()
                        return 0
                    }
                }
            }
        }
        #expect(await gauge.peak == 4)
    }
}

/// Counts how many tasks are inside a region at once, and the most there ever were.
actor ConcurrencyGauge {
    private(set) var peak = 0
    private var current = 0

    func enter() {
        current += 1
        peak = max(peak, current)
    }

    func leave() {
        current -= 1
    }
}
