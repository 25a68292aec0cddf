import Foundation
@testable import Profiles
import Testing

private let catalog = ProfileCatalog()

/// A shipped profile's JSON with one change applied, for tests of refusals.
private func altered(_ name: String = "apple-tv-4k", _ change: (inout [String: Any]) -> Void) throws -> Data {
    let data = try Data(contentsOf: catalog.directory.appendingPathComponent("\(name).json"))
    var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    change(&object)
    return try JSONSerialization.data(withJSONObject: object)
}

@Suite("Receiver profiles")
struct ReceiverProfileTests {
    @Test("The shipped profiles are the six the design names and the device classes of issue 24")
    func shippedNames() {
        #expect(catalog.shippedNames == [
            "apple-tv-4k", "apple-tv-4k-2017", "apple-tv-4k-2021", "apple-tv-hd", "lg-webos-tv", "roku-airplay", "samsung-tizen-tv", "samsung-tizen-tv-2018",
            "smart-tv-high", "smart-tv-low", "sony-bravia-android-tv", "soundbar", "streaming-stick", "vizio-smartcast-tv",
        ])
    }

    @Test("Every shipped profile passes the schema and the consistency checks", arguments: ProfileCatalog().shippedNames)
    func shippedProfileValidates(name: String) throws {
        let profile = try catalog.profile(name)
        #expect(profile.name == name)
        #expect(!profile.transitions.splice.source.isEmpty)
        #expect(profile.transitions.dimensions.values.allSatisfy { !$0.source.isEmpty && $0.p95Milliseconds >= $0.p50Milliseconds })
    }

    @Test("The low-end TV is SDR, stereo AAC, H.264 only, and stays on its start codec, as Apple's guidance describes")
    func lowEndTV() throws {
        let profile = try catalog.profile("smart-tv-low")
        #expect(profile.video?.codecs.map(\.codec) == ["h264"])
        #expect(profile.video?.dynamicRanges == ["SDR"])
        #expect(profile.audio.codecs.map(\.codec) == ["aac"] && profile.audio.codecs[0].maxChannels == 2)
        #expect(profile.switching.codecChange == .stayOnStartCodec)
    }

    @Test("The soundbar has no video")
    func soundbarIsAudioOnly() throws {
        #expect(try catalog.profile("soundbar").video == nil)
    }

    @Test("A profile file can be named by path")
    func profileByPath() throws {
        let path = catalog.directory.appendingPathComponent("apple-tv-hd.json").path
        #expect(try catalog.profile(path).name == "apple-tv-hd")
    }

    @Test("Broken profiles are refused with the JSON path and a reason a person can act on", arguments: Breakage.allCases)
    func brokenProfileRefused(breakage: Breakage) throws {
        let data = try altered { breakage.apply(to: &$0) }
        let error = #expect(throws: ProfileError.self) { try catalog.decode(data, file: "broken.json") }
        #expect(error?.file == "broken.json")
        #expect(error?.path == breakage.expected.path)
        #expect(error?.reason.contains(breakage.expected.reason) == true, "reason was: \(error?.reason ?? "none")")
    }

    @Test("An unknown profile name lists the shipped ones; a missing file and bad JSON say so")
    func unknownNamesAndFiles() throws {
        let unknown = #expect(throws: ProfileError.self) { try catalog.profile("toaster") }
        #expect(unknown?.reason.contains("apple-tv-4k, apple-tv-4k-2017, apple-tv-4k-2021, apple-tv-hd") == true)
        let missing = #expect(throws: ProfileError.self) { try catalog.profile("/nonexistent/tv.json") }
        #expect(missing?.reason == "cannot be read (no such file)")
        let notJSON = #expect(throws: ProfileError.self) { try catalog.decode(Data("{".utf8), file: "x.json") }
        #expect(notJSON?.reason == "is not valid JSON")
    }

    @Test("A profile path that is no regular file, or a file far larger than a profile, is refused before it is read")
    func unreadableKinds() throws {
        let device = #expect(throws: ProfileError.self) { try catalog.profile("/dev/zero") }
        #expect(device?.reason == "is not a regular file")
        let folder = #expect(throws: ProfileError.self) { try catalog.profile(FileManager.default.temporaryDirectory.path + "/") }
        #expect(folder?.reason == "is not a regular file")
        let large = FileManager.default.temporaryDirectory.appendingPathComponent("airlab-large-\(UUID().uuidString).json")
        try Data(repeating: 0x20, count: ProfileCatalog.maximumFileSize + 1).write(to: large)
        defer { try? FileManager.default.removeItem(at: large) }
        let tooLarge = #expect(throws: ProfileError.self) { try catalog.profile(large.path) }
        #expect(tooLarge?.reason == "is \(ProfileCatalog.maximumFileSize + 1) bytes; a profile is at most \(ProfileCatalog.maximumFileSize)")
    }
}

/// Ways to break a valid profile, each with the path and reason the refusal must give.
enum Breakage: CaseIterable, Sendable {
    case missingMember, badName, unknownMember, zeroRTT, unknownEnum, numberForBoolean, p95BelowP50, costWithoutSource, noSDR, textForPictureInPicture

    func apply(to profile: inout [String: Any]) {
        func edit(_ key: String, _ change: (inout [String: Any]) -> Void) {
            var member = profile[key] as! [String: Any]
            change(&member)
            profile[key] = member
        }
        switch self {
        case .missingMember: profile.removeValue(forKey: "network")
        case .badName: profile["name"] = "Apple TV"
        case .unknownMember: profile["colour"] = "black"
        case .zeroRTT: edit("network") { $0["rttMilliseconds"] = 0 }
        case .unknownEnum: edit("switching") { $0["codecChange"] = "sometimes" }
        case .numberForBoolean: edit("display") { $0["matchFrameRate"] = 1 }
        case .p95BelowP50: edit("transitions") { $0["frame_rate"] = ["p50Milliseconds": 900, "p95Milliseconds": 100, "source": "a test's guess", "basis": "assumed"] }
        case .costWithoutSource: edit("transitions") { $0["splice"] = ["p50Milliseconds": 10, "p95Milliseconds": 20] }
        case .noSDR: edit("video") { $0["dynamicRanges"] = ["PQ"] }
        case .textForPictureInPicture: profile["pictureInPicture"] = "yes"
        }
    }

    var expected: (path: String, reason: String) {
        switch self {
        case .missingMember: ("$", "the required member \"network\" is missing")
        case .badName: ("$.name", "\"Apple TV\" does not match ^[a-z0-9][a-z0-9-]*$")
        case .unknownMember: ("$.colour", "is not a known member here")
        case .zeroRTT: ("$.network.rttMilliseconds", "0 must be greater than 0")
        case .unknownEnum: ("$.switching.codecChange", "\"sometimes\" is not one of")
        case .numberForBoolean: ("$.display.matchFrameRate", "expected boolean, found 1")
        case .p95BelowP50: ("$.transitions.frame_rate.p95Milliseconds", "the 95th percentile (100.0 ms) is below the median (900.0 ms)")
        case .costWithoutSource: ("$.transitions.splice", "the required member \"source\" is missing")
        case .noSDR: ("$.video.dynamicRanges", "every video receiver shows SDR")
        case .textForPictureInPicture: ("$.pictureInPicture", "expected boolean, found \"yes\"")
        }
    }
}
