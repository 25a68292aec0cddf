import Foundation
import JSONDocument
@testable import Profiles
import Testing

/// How profiles declare quirks: the ones that black the picture carry the black's numbers, with a
/// source, and the catalog refuses a declaration it could not play.
@Suite("Quirk declarations")
struct QuirkDeclarationTests {
    let catalog = ProfileCatalog()

    /// The apple-tv-4k document with `quirks` set to `declarations`.
    func declaring(_ declarations: [JSONValue]) throws -> Data {
        let data = try Data(contentsOf: catalog.directory.appendingPathComponent("apple-tv-4k.json"))
        guard case .object(var members) = try JSONDecoder().decode(JSONValue.self, from: data) else { throw CocoaError(.fileReadCorruptFile) }
        members["quirks"] = .array(declarations)
        return try JSONEncoder().encode(JSONValue.object(members))
    }

    static func quirk(_ kind: String, p50: Double? = nil, p95: Double? = nil) -> JSONValue {
        var members: [String: JSONValue] = ["kind": .string(kind), "source": .string("a cited report"), "basis": .string("published")]
        if let p50 { members["p50Milliseconds"] = .number(p50) }
        if let p95 { members["p95Milliseconds"] = .number(p95) }
        return .object(members)
    }

    func refusal(_ declarations: [JSONValue]) throws -> ProfileError? {
        let data = try declaring(declarations)
        do {
            _ = try catalog.decode(data, file: "tv.json")
            return nil
        } catch {
            return error
        }
    }

    @Test("The Sony class declares both blacks and the stick the decoder's, with their numbers counted by their basis")
    func shipped() throws {
        let sony = try catalog.profile("sony-bravia-android-tv")
        let reinit = try #require(sony.declared(.decoderReinitBlack))
        #expect(reinit.p50Milliseconds == 110 && reinit.p95Milliseconds == 330 && reinit.source.contains("google/ExoPlayer#8568"))
        let upSwitch = try #require(sony.declared(.firstUpSwitchBlack))
        #expect(upSwitch.p50Milliseconds == 250 && upSwitch.source.contains("androidx/media#2035"))
        let counted = sony.provenance.numbers.filter { $0.key.hasPrefix("quirks[") }
        #expect(counted.count == 4 && counted.allSatisfy { $0.provenance?.basis == .derived }, "\(counted.map(\.key))")
        #expect(try catalog.profile("streaming-stick").declared(.decoderReinitBlack) != nil)
        // No shipped class runs the player the eager asset-list reports are about.
        #expect(try catalog.shippedNames.allSatisfy { try catalog.profile($0).declared(.eagerAssetLists) == nil })
    }

    @Test("A declaration the engine can play is accepted: a black with both numbers, the others bare")
    func accepted() throws {
        let profile = try catalog.decode(
            try declaring([Self.quirk("first-upswitch-black", p50: 200, p95: 300), Self.quirk("eager-asset-lists")]), file: "tv.json")
        #expect(profile.declared(.firstUpSwitchBlack)?.black == LatencyDistribution(medianMilliseconds: 200, p95Milliseconds: 300))
        #expect(profile.declared(.eagerAssetLists)?.black == nil)
    }

    @Test("A black without its numbers, with them backwards or out of range, numbers on a quirk without a black, and a quirk twice are refused, naming the member")
    func refused() throws {
        let cases: [([JSONValue], String, String)] = [
            ([Self.quirk("decoder-reinit-black")], "$.quirks[0].p50Milliseconds", "decoder-reinit-black blacks the picture: give the black's median"),
            ([Self.quirk("first-upswitch-black", p50: 250)], "$.quirks[0].p95Milliseconds", "give the black's 95th percentile"),
            ([Self.quirk("first-upswitch-black", p50: 250, p95: 100)], "$.quirks[0].p95Milliseconds", "the 95th percentile (100.0 ms) is below the median (250.0 ms)"),
            ([Self.quirk("eager-asset-lists", p50: 250, p95: 300)], "$.quirks[0].p50Milliseconds", "eager-asset-lists does not black the picture"),
            ([Self.quirk("decoder-reinit-black", p50: 250, p95: 60_000)], "$.quirks[0].p95Milliseconds", "60000 is above the maximum 10000"),
            ([Self.quirk("eager-asset-lists"), Self.quirk("eager-asset-lists")], "$.quirks[1].kind", "eager-asset-lists is declared more than once"),
        ]
        for (declarations, path, reason) in cases {
            let error = try #require(try refusal(declarations), "\(declarations)")
            #expect(error.path == path && error.reason.contains(reason), "\(error)")
        }
    }

    @Test("A black's draw stays a length the clock can play, however wide its two numbers lie apart")
    func drawsAreBounded() {
        let wide = DeclaredQuirk(kind: .firstUpSwitchBlack, source: "s", basis: .assumed, p50Milliseconds: 1e-300, p95Milliseconds: 10_000)
        let draws = (0..<200).compactMap { wide.blackCost("black", seed: UInt64($0), detail: "")?.milliseconds }
        #expect(draws.count == 200 && draws.allSatisfy { (0...DeclaredQuirk.maximumBlackMilliseconds).contains($0) })
        let none = DeclaredQuirk(kind: .eagerAssetLists, source: "s", basis: .assumed)
        #expect(none.blackCost("black", seed: 1, detail: "") == nil)
    }

    @Test("The catalog's own check bounds a black even where a schema would not")
    func bounded() {
        var quirk = DeclaredQuirk(kind: .decoderReinitBlack, source: "s", basis: .assumed, p50Milliseconds: .infinity, p95Milliseconds: .infinity)
        #expect(quirk.problem?.member == "p50Milliseconds")
        quirk.p50Milliseconds = -1
        #expect(quirk.problem?.reason == "-1.0 ms is outside 0 to 10000 ms")
    }
}
