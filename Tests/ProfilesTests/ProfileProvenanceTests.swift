import Foundation
import JSONDocument
@testable import Profiles
import Testing

private let catalog = ProfileCatalog()

/// A shipped profile's document with one change applied, for refusals.
private func altered(_ name: String = "apple-tv-4k", _ change: (inout [String: JSONValue]) -> Void) throws -> Data {
    let data = try Data(contentsOf: catalog.directory.appendingPathComponent("\(name).json"))
    guard case .object(var members) = try JSONDecoder().decode(JSONValue.self, from: data) else {
        Issue.record("\(name).json is not an object")
        return data
    }
    change(&members)
    return try JSONEncoder().encode(JSONValue.object(members))
}

/// Removes `member` from the object at `key` (or from the first codec entry of `key` when it is `video`/`audio`).
private func removing(_ member: String, from key: String, codec: Bool = false) -> (inout [String: JSONValue]) -> Void {
    { members in
        guard case .object(var object)? = members[key] else { return }
        if codec, case .array(var codecs)? = object["codecs"], case .object(var first)? = codecs.first {
            first.removeValue(forKey: member)
            codecs[0] = .object(first)
            object["codecs"] = .array(codecs)
        } else {
            object.removeValue(forKey: member)
        }
        members[key] = .object(object)
    }
}

private func setting(_ member: String, to value: JSONValue, in key: String) -> (inout [String: JSONValue]) -> Void {
    { members in
        guard case .object(var object)? = members[key] else { return }
        object[member] = value
        members[key] = .object(object)
    }
}

@Suite("Profile provenance")
struct ProfileProvenanceTests {
    @Test("Every number of every shipped profile has a source and a basis, and an assumption gives its reason", arguments: ProfileCatalog().shippedNames)
    func everyNumberIsSourced(name: String) throws {
        let profile = try catalog.profile(name)
        let numbers = profile.provenance.numbers
        #expect(!numbers.isEmpty)
        for number in numbers {
            let provenance = try #require(number.provenance, "\(number.path) has no provenance")
            #expect(provenance.source.count > 20, "\(number.path): \(provenance.source)")
        }
        #expect(profile.summary.numbers.total == numbers.count)
        #expect(Version(profile.version) != nil, "version \(profile.version)")
    }

    @Test("The numbers read for provenance are the ones the profile plays by")
    func numbersMatchTheDecodedProfile() throws {
        let profile = try catalog.profile("smart-tv-low")
        let byKey = Dictionary(uniqueKeysWithValues: profile.provenance.entries.map { ($0.key, $0) })
        #expect(byKey["transitions.splice.p50Milliseconds"]?.value == .number(profile.transitions.splice.p50Milliseconds))
        #expect(byKey["network.rttMilliseconds"]?.value == .number(profile.network.rttMilliseconds))
        #expect(byKey["video.codecs[h264].maxWidth"]?.path == "$.video.codecs[0].maxWidth")
        #expect(byKey["audio.codecs[aac].sampleRates"]?.value == .array([.number(44100), .number(48000)]))
        #expect(byKey["network.rttMilliseconds"]?.provenance?.basis == .assumed)
        #expect(byKey["buffer.retry.retries"]?.provenance?.basis == .published)
    }

    @Test("A number without a basis or a source is refused with the file, the JSON path and the reason", arguments: Refusal.allCases)
    func refused(refusal: Refusal) throws {
        let data = try altered("apple-tv-4k", refusal.change)
        let error = #expect(throws: ProfileError.self) { try catalog.decode(data, file: "tv.json") }
        #expect(error?.file == "tv.json")
        #expect(error?.path == refusal.expected.path)
        #expect(error?.reason.contains(refusal.expected.reason) == true, "reason was: \(error?.reason ?? "none")")
    }

    @Test("The schema alone also requires a source and a basis where numbers sit, and a version")
    func schemaRequiresProvenance() throws {
        let schema = try catalog.shippedSchema("profile.schema.json")
        for refusal in [Refusal.networkWithoutBasis, .codecWithoutProvenance, .costWithoutBasis, .bufferWithoutBasis, .retryWithoutBasis, .noVersion] {
            let document = try JSONDecoder().decode(JSONValue.self, from: try altered("apple-tv-4k", refusal.change))
            let violations = schema.violations(of: document)
            #expect(violations.contains { $0.path == refusal.schemaPath && $0.reason.contains("is missing") }, "\(refusal): \(violations)")
        }
    }

    @Test("A provenance on an object covers its numbers, and only the nearest one counts")
    func nearestProvenanceCovers() throws {
        let document = JSONValue.object([
            "network": .object(["rttMilliseconds": .number(5), "bandwidthMbps": .number(9), "source": .string("a lab, 2026"), "basis": .string("measured")]),
            "video": .object([
                "source": .string("a spec sheet"), "basis": .string("published"), "dynamicRanges": .array([.string("SDR")]),
                "codecs": .array([.object(["codec": .string("h264"), "maxWidth": .number(1920), "source": .string("derived from x"), "basis": .string("derived")])]),
            ]),
        ])
        let provenance = try ProfileProvenance(reading: document)
        #expect(provenance.entries.map(\.key) == ["video.codecs[h264].maxWidth", "video.dynamicRanges", "network.bandwidthMbps", "network.rttMilliseconds"])
        #expect(provenance.entries.map { $0.provenance?.basis } == [.derived, .published, .measured, .measured])
        var expected = BasisCounts()
        expected.derived = 1
        expected.measured = 2
        #expect(provenance.counts == expected)
    }
}

/// Ways to take a provenance away, each with the path and reason the refusal must give.
enum Refusal: CaseIterable, Sendable {
    case networkWithoutBasis, networkWithoutSource, codecWithoutProvenance, costWithoutBasis, bufferWithoutBasis, retryWithoutBasis
    case unknownBasis, bareAssumption, noVersion

    var change: (inout [String: JSONValue]) -> Void {
        switch self {
        case .networkWithoutBasis: removing("basis", from: "network")
        case .networkWithoutSource: removing("source", from: "network")
        case .codecWithoutProvenance:
            { members in
                removing("source", from: "video", codec: true)(&members)
                removing("basis", from: "video", codec: true)(&members)
            }
        case .costWithoutBasis:
            { members in
                guard case .object(var transitions)? = members["transitions"], case .object(var splice)? = transitions["splice"] else { return }
                splice.removeValue(forKey: "basis")
                transitions["splice"] = .object(splice)
                members["transitions"] = .object(transitions)
            }
        case .bufferWithoutBasis, .retryWithoutBasis:
            { [self] members in
                let part = self == .retryWithoutBasis ? "retry" : "startupBuffer"
                guard case .object(var buffer)? = members["buffer"], case .object(var item)? = buffer[part] else { return }
                item.removeValue(forKey: "basis")
                buffer[part] = .object(item)
                members["buffer"] = .object(buffer)
            }
        case .unknownBasis: setting("basis", to: .string("guessed"), in: "network")
        case .bareAssumption:
            { members in
                setting("basis", to: .string("assumed"), in: "network")(&members)
                setting("source", to: .string("assumed"), in: "network")(&members)
            }
        case .noVersion: { $0.removeValue(forKey: "version") }
        }
    }

    var expected: (path: String, reason: String) {
        switch self {
        case .networkWithoutBasis: ("$.network", "the required member \"basis\" is missing")
        case .networkWithoutSource: ("$.network", "the required member \"source\" is missing")
        case .codecWithoutProvenance: ("$.video.codecs[0]", "the required member \"source\" is missing: every number needs a source")
        case .costWithoutBasis: ("$.transitions.splice", "the required member \"basis\" is missing")
        case .bufferWithoutBasis: ("$.buffer.startupBuffer", "the required member \"basis\" is missing")
        case .retryWithoutBasis: ("$.buffer.retry", "the required member \"basis\" is missing")
        case .unknownBasis: ("$.network.basis", "\"guessed\" is not one of \"measured\", \"published\", \"derived\", \"assumed\"")
        case .bareAssumption: ("$.network.source", "an assumed number needs the reason nothing better exists")
        case .noVersion: ("$", "the required member \"version\" is missing")
        }
    }

    var schemaPath: String {
        switch self {
        case .codecWithoutProvenance: "$.video.codecs[0]"
        default: expected.path
        }
    }
}

/// A version as the schema spells it: dotted whole numbers.
private struct Version {
    init?(_ text: String) {
        guard !text.isEmpty, text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
            return nil
        }
    }
}

@Suite("Profile comparison")
struct ProfileComparisonTests {
    @Test("Two profiles compare number by number: both values, B minus A, both bases; codecs by name")
    func comparesNumbers() throws {
        let appleTV = try catalog.profile("apple-tv-4k")
        let comparison = ProfileComparison(appleTV, try catalog.profile("smart-tv-low"))
        #expect(comparison.a.name == "apple-tv-4k" && comparison.b.name == "smart-tv-low" && comparison.a.version == appleTV.version)
        let rows = Dictionary(uniqueKeysWithValues: comparison.rows.map { ($0.key, $0) })
        let width = try #require(rows["video.codecs[h264].maxWidth"])
        #expect(width.a == .number(3840) && width.b == .number(1920) && width.difference == -1920)
        #expect(width.aBasis == .derived && width.bBasis == .derived && width.isNumber)
        let level = try #require(rows["video.codecs[h264].maxLevel"])
        #expect(level.difference == -1.1)
        let hevc = try #require(rows["video.codecs[hevc].maxWidth"])
        #expect(hevc.a == .number(3840) && hevc.b == nil && hevc.difference == nil && hevc.bBasis == nil)
        let splice = try #require(rows["transitions.splice.p50Milliseconds"])
        #expect(splice.difference == 230 && splice.aBasis == .assumed)
        #expect(comparison.differing > 0)
    }

    @Test("The fit counts measured numbers within 10 % or 50 ms of the other profile's, and names those outside; nothing measured, no fit")
    func fit() throws {
        let file = catalog.directory.appendingPathComponent("smart-tv-high.json")
        guard case .object(var document)? = JSONValue(document: try Data(contentsOf: file)),
            case .object(var transitions)? = document["transitions"], case .object(var frameRate)? = transitions["frame_rate"],
            case .object(var sampleRate)? = transitions["sample_rate"], case .number(let frameRateP50)? = frameRate["p50Milliseconds"],
            case .number(let sampleRateP50)? = sampleRate["p50Milliseconds"]
        else { throw ProfileError(file: file.path, path: "$.transitions", reason: "not the shape this test expects") }
        // Two costs measured: the frame rate's far off, the sample rate's a little.
        frameRate["p50Milliseconds"] = .number(frameRateP50 + max(0.1 * frameRateP50, 50) + 100)
        sampleRate["p50Milliseconds"] = .number(sampleRateP50 + 10)
        for (name, var cost) in [("frame_rate", frameRate), ("sample_rate", sampleRate)] {
            cost["basis"] = .string("measured")
            cost["source"] = .string("airlab calibrate on a test receiver")
            transitions[name] = .object(cost)
        }
        document["transitions"] = .object(transitions)
        let measured = try catalog.decode(try JSONEncoder().encode(JSONValue.object(document)), file: "measured.json")
        let fit = ProfileComparison(try catalog.profile("smart-tv-high"), measured).fit
        #expect(fit.measured == 4 && fit.within == 3)
        #expect(fit.outside.map(\.key) == ["transitions.frame_rate.p50Milliseconds"])
        #expect(ProfileComparison(try catalog.profile("apple-tv-4k"), try catalog.profile("smart-tv-low")).fit.measured == 0)
    }

    @Test("A profile compared with itself differs nowhere")
    func sameProfile() throws {
        let profile = try catalog.profile("roku-airplay")
        let comparison = ProfileComparison(profile, profile)
        #expect(comparison.differing == 0)
        #expect(comparison.rows.count == profile.provenance.entries.count)
        let singles = comparison.rows.filter { if case .number? = $0.a { true } else { false } }
        #expect(!singles.isEmpty && singles.allSatisfy { $0.difference == 0 })
    }
}
