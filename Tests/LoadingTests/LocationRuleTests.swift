import Foundation
import HLS
import Testing
import TestSupport
@testable import Loading

/// The one location rule: what a network document references is never a local file, and the refusal
/// says so before the file system is asked anything.
@Suite("The location rule")
struct LocationRuleTests {
    let loader = ResourceLoader(timeout: 20)

    @Test("A local file referenced from an http(s) document is refused, in the same words whether it exists or not")
    func networkDocumentsNeverReachLocalFiles() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let present = try scratch.write("secret.ts", "bytes a remote sender must never learn about")
        let absent = scratch.url.appendingPathComponent("absent.ts")
        for document in ["http://cdn.example.com/show/media.m3u8", "https://cdn.example.com/show/media.m3u8"] {
            let referrer = ResourceReferrer.document(try ResourceLocation(argument: document))
            var answers: [String] = []
            for file in [present, absent] {
                for size in [1 << 10, 1 << 30] {
                    let error = await #expect(throws: LoadingError.self) {
                        try await loader.load(try ResourceLocation(url: file), maximumSize: size, referrer: referrer, overflow: .keepFirst)
                    }
                    #expect(error?.reason == .localFileNotAllowed)
                    answers.append(error?.reason.description ?? "no error")
                }
            }
            #expect(Set(answers) == ["a local file, which a resource fetched over the network may not reference"])
        }
    }

    @Test("The rule holds for playlists, asset lists and ranged reads alike")
    func everyKindOfReadKeepsTheRule() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("media.m3u8", "#EXTM3U\n")
        let location = try ResourceLocation(url: file)
        let referrer = ResourceReferrer.document(try ResourceLocation(argument: "http://127.0.0.1:9/master.m3u8"))
        await #expect(throws: LoadingError(location: location.description, reason: .localFileNotAllowed)) {
            try await loader.loadPlaylist(location, referrer: referrer)
        }
        await #expect(throws: LoadingError(location: location.description, reason: .localFileNotAllowed)) {
            try await loader.loadAssetList(location, referrer: referrer)
        }
        await #expect(throws: LoadingError(location: location.description, reason: .localFileNotAllowed)) {
            try await loader.load(location, maximumSize: 100, referrer: referrer, range: ResourceRange(offset: 2, length: 3))
        }
    }

    @Test("A local document's references may be local files; a local input only when the caller allows it")
    func localDocumentsAndInputs() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("seg.ts", "0123456789")
        let location = try ResourceLocation(url: file)
        let local = ResourceReferrer.document(try ResourceLocation(argument: scratch.url.appendingPathComponent("media.m3u8").path))
        #expect(try await loader.load(location, maximumSize: 100, referrer: local).data == Data("0123456789".utf8))
        #expect(try await loader.load(location, maximumSize: 100, referrer: .input(allowingLocalFiles: true)).data.count == 10)
        await #expect(throws: LoadingError(location: location.description, reason: .localInputNotAllowed)) {
            try await loader.load(location, maximumSize: 100, referrer: .input(allowingLocalFiles: false))
        }
        #expect(local.allowsLocalFiles)
        #expect(!ResourceReferrer.document(try ResourceLocation(argument: "https://cdn.example.com/a.m3u8")).allowsLocalFiles)
    }

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
    func resolution(base: String, reference: String, expected: String) throws {
        #expect(try ResourceLocation(argument: base).resolving(reference).description == expected)
    }

    @Test("A reference with another scheme is refused when it is resolved, before anything is read",
          arguments: ["rtmp://host/live", "ftp://host/a.ts", "data:video/mp2t;base64,AAAA"])
    func otherSchemes(reference: String) throws {
        let document = try ResourceLocation(argument: "http://host/a/master.m3u8")
        let scheme = String(reference.prefix { $0 != ":" })
        #expect(throws: LoadingError(location: reference, reason: .unsupportedScheme(scheme))) { try document.resolving(reference) }
    }

    @Test("A range of a local file is read from its offset, and a range past the end gives the bytes that exist")
    func localRanges() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let location = try ResourceLocation(url: try scratch.write("media.m4s", "0123456789"))
        let input = ResourceReferrer.input(allowingLocalFiles: true)
        #expect(try await loader.load(location, maximumSize: 100, referrer: input, range: ResourceRange(offset: 3, length: 4)).data == Data("3456".utf8))
        #expect(try await loader.load(location, maximumSize: 100, referrer: input, range: ResourceRange(offset: 8, length: 4)).data == Data("89".utf8))
        #expect(try await loader.load(location, maximumSize: 100, referrer: input, range: ResourceRange(offset: 20, length: 4)).data.isEmpty)
        #expect(ResourceRange(offset: Int.max, length: 2) == nil)
        #expect(ResourceRange(offset: -1, length: 2) == nil)
    }

    @Test("Keeping the first bytes cuts a long resource to the cap and says so; refusing it refuses by size")
    func keepFirst() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let location = try ResourceLocation(url: try scratch.write("long.ts", "0123456789"))
        let input = ResourceReferrer.input(allowingLocalFiles: true)
        let cut = try await loader.load(location, maximumSize: 4, referrer: input, overflow: .keepFirst)
        #expect(cut.data == Data("0123".utf8))
        #expect(cut.isTruncated)
        #expect(try await loader.load(location, maximumSize: 10, referrer: input, overflow: .keepFirst).isTruncated == false)
        await #expect(throws: LoadingError(location: location.description, reason: .tooLarge(limit: 4, size: 10))) {
            try await loader.load(location, maximumSize: 4, referrer: input)
        }
    }
}
