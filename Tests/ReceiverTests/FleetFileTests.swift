import Foundation
import Playback
import Profiles
import Receiver
import TestSupport
import Testing

/// `airlabd --fleet FILE.json`: the file describes the fleet the command line would, and a bad one is
/// refused naming the file, the JSON path and the reason.
@Suite("Fleet files")
struct FleetFileTests {
    static let catalog = ProfileCatalog()
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func decode(_ text: String, file: String = "lab/fleet.json", folder: URL = URL(fileURLWithPath: "/nonexistent")) throws -> FleetDescription {
        try FleetDescription.decode(Data(text.utf8), file: file, folder: folder, catalog: catalog)
    }

    @Test("The example fleet file starts the receivers it says: counts, names, ports following on, password and time scale")
    func exampleFile() throws {
        let file = Self.repository.appendingPathComponent("examples/fleet.json")
        let receivers = try FleetDescription.load(file, catalog: Self.catalog).configurations(FleetDescription.Shared())
        let low = try Self.catalog.profile("smart-tv-low").displayName
        #expect(receivers.count == 27)
        #expect(receivers.prefix(20).map(\.name) == (1...20).map { "\(low) #\($0)" })
        #expect(receivers.prefix(20).map(\.port) == (7000...7019).map(UInt16.init))
        #expect(receivers[20..<25].map(\.name) == (1...5).map { "Living room TV #\($0)" })
        #expect(receivers[20..<25].map(\.port) == (7020...7024).map(UInt16.init))
        #expect(receivers[25].profile.name == "apple-tv-4k" && receivers[25].port == 7100)
        #expect(receivers[25].password == "airlab" && receivers[25].timeScale == 10)
        #expect(receivers[26].profile.name == "soundbar" && receivers[26].port == 7101 && receivers[26].password == nil)
        #expect(Set(receivers.map(\.identity.deviceID)).count == receivers.count)
    }

    @Test("The fleet file deploy/kubernetes ships is one airlabd --fleet takes: six receivers on ports 7000–7005")
    func deployedFile() throws {
        let file = Self.repository.appendingPathComponent("deploy/kubernetes/fleet.json")
        let receivers = try FleetDescription.load(file, catalog: Self.catalog).configurations(FleetDescription.Shared())
        #expect(receivers.map(\.profile.name) == Array(repeating: "smart-tv-low", count: 4) + ["apple-tv-4k", "apple-tv-4k"])
        #expect(receivers.map(\.port) == (7000...7005).map(UInt16.init))
    }

    @Test("A fleet file and the command line that says the same build the same receivers")
    func sameAsCommandLine() throws {
        let file = try Self.decode(#"{"media": "verify", "receivers": [{"profile": "smart-tv-low", "count": 3, "port": 8000}, {"profile": "soundbar"}]}"#)
        let flags = try FleetDescription(
            profiles: ["smart-tv-low*3", "soundbar"], firstPort: 8000, name: nil, password: nil, timeScale: 1, media: .verify, catalog: Self.catalog)
        let shared = FleetDescription.Shared(stateDirectory: URL(fileURLWithPath: "/state", isDirectory: true))
        let fromFile = try file.configurations(shared)
        let fromFlags = try flags.configurations(shared)
        #expect(file.media == .verify)
        #expect(fromFile.map(\.name) == fromFlags.map(\.name))
        #expect(fromFile.map(\.port) == fromFlags.map(\.port))
        #expect(fromFile.map(\.identity) == fromFlags.map(\.identity))
        #expect(fromFile.map(\.stateDirectory) == fromFlags.map(\.stateDirectory))
    }

    @Test("A profile file named in a fleet file is found relative to the fleet file's folder")
    func relativeProfilePath() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let profile = try String(contentsOf: Self.repository.appendingPathComponent("profiles/soundbar.json"), encoding: .utf8)
        _ = try scratch.write("profiles/my-bar.json", profile)
        let fleet = try scratch.write("fleet.json", #"{"receivers": [{"profile": "profiles/my-bar.json", "count": 2}]}"#)
        let receivers = try FleetDescription.load(fleet, catalog: Self.catalog).configurations(FleetDescription.Shared())
        #expect(receivers.map(\.profile.name) == ["soundbar", "soundbar"])
    }

    @Test("airlabd --fleet runs the receivers the file describes, each with its own device id and password")
    func daemonRunsTheFile() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("fleet.json", """
            {"receivers": [{"profile": "soundbar", "count": 2, "port": 0, "name": "Bar"},
                           {"profile": "apple-tv-hd", "port": 0, "password": "secret", "timeScale": 5}]}
            """)
        let apple = try Self.catalog.profile("apple-tv-hd").displayName
        try await withDaemon(["--fleet", file.path]) { daemon in
            #expect(daemon.receivers.map(\.name) == ["Bar #1", "Bar #2", apple])
            #expect(daemon.receivers.map(\.profile) == ["soundbar", "soundbar", "apple-tv-hd"])
            var ids: Set<String> = []
            for receiver in daemon.receivers {
                let info = try await HTTPTestClient.send(port: receiver.port, "GET", "/server-info").text
                let plist = try PropertyListSerialization.propertyList(from: Data(info.utf8), format: nil) as? [String: Any]
                #expect(plist?["name"] as? String == receiver.name)
                ids.insert(plist?["deviceid"] as? String ?? "")
            }
            #expect(ids.count == 3)
            #expect(try await HTTPTestClient.send(port: daemon.receivers[0].port, "GET", "/playback-info").status == 200)
            #expect(try await HTTPTestClient.send(port: daemon.receivers[2].port, "GET", "/playback-info").status == 401)
        }
    }

    @Test("airlabd --fleet with a bad file: one line naming the file, the JSON path and the reason, exit 2")
    func daemonRefusesBadFile() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("fleet.json", #"{"receivers": [{"profile": "soundbar"}, {"profile": "soundbar", "count": 5000}]}"#)
        let result = try await DaemonCommandLineTests.run(["--fleet", file.path, "--address", "127.0.0.1", "--no-mdns"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("airlabd: \(file.path): $.receivers[1].count: 5000 is above the maximum 1000"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test("Each kind of bad fleet file fails naming the file, the JSON path and the reason", arguments: [
        ("{ \"receivers\": [", "$", "is not valid JSON"),
        (#"[{"profile": "soundbar"}]"#, "$", "expected object"),
        (#"{"receivers": [{"profile": "soundbar", "count": "2"}]}"#, "$.receivers[0].count", "expected integer"),
        (#"{"receivers": [{"profile": "soundbar", "count": 2.5}]}"#, "$.receivers[0].count", "expected integer"),
        (#"{"receivers": [{"profile": "soundbar"}, {"profile": "soundbar"}, {"profile": "soundbar", "count": 1001}]}"#, "$.receivers[2].count", "above the maximum 1000"),
        (#"{"receivers": [{"profile": "soundbar", "count": 0}]}"#, "$.receivers[0].count", "below the minimum 1"),
        (#"{"receivers": [{"profile": "no-such-tv"}]}"#, "$.receivers[0].profile", "no shipped profile has this name"),
        (#"{"receivers": [{"profile": "soundbar", "port": 7000, "count": 3}, {"profile": "apple-tv-hd", "port": 7002}]}"#, "$.receivers[1].port", "port 7002 overlap ports 7000-7002 of $.receivers[0].port"),
        (#"{"receivers": [{"profile": "soundbar", "count": 3}, {"profile": "apple-tv-hd", "port": 7001, "count": 2}]}"#, "$.receivers[1].port", "overlap"),
        (#"{"receivers": [{"profile": "soundbar", "port": 65535, "count": 2}]}"#, "$.receivers[0].port", "do not fit below 65536"),
        ("{\"receivers\": [" + Array(repeating: #"{"profile": "soundbar", "port": 0, "count": 1000}"#, count: 11).joined(separator: ",") + "]}", "$.receivers[10].count", "larger than 10000 receivers"),
        (#"{"receivers": [{"profile": "soundbar", "colour": "red"}]}"#, "$.receivers[0].colour", "is not a known member here"),
        (#"{"receivers": [], "address": "0.0.0.0"}"#, "$.address", "is not a known member here"),
        (#"{"receivers": []}"#, "$.receivers", "needs at least 1 item"),
        (#"{"media": "fast", "receivers": [{"profile": "soundbar"}]}"#, "$.media", "is not one of"),
        (#"{"receivers": [{"profile": "soundbar", "timeScale": 0}]}"#, "$.receivers[0].timeScale", "must be greater than 0"),
        (#"{"receivers": [{"profile": "soundbar", "name": ""}]}"#, "$.receivers[0].name", "must not be empty"),
        (#"{"receivers": [{"profile": "soundbar", "name": "Bar #2"}, {"profile": "soundbar", "name": "Bar", "count": 2}]}"#, "$.receivers[1].name", "\"Bar #2\""),
        (#"{"receivers": [{"count": 2}]}"#, "$.receivers[0]", "the required member \"profile\" is missing"),
    ])
    func badFiles(_ text: String, _ path: String, _ reason: String) throws {
        do {
            let fleet = try Self.decode(text)
            Issue.record("accepted \(text) as \(fleet.replicas.count) group(s)")
        } catch let error as FleetError {
            #expect(error.file == "lab/fleet.json", "\(error)")
            #expect(error.path == path, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
            #expect(error.description.hasPrefix("lab/fleet.json: \(path): "), "\(error)")
        }
    }

    @Test("The shipped schema states the daemon's own bounds: counts, time scales, ports and media modes")
    func schemaAgreesWithTheModel() throws {
        let data = try Data(contentsOf: Self.catalog.directory.appendingPathComponent(FleetDescription.schemaFileName))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: Any])
        let media = try #require((properties["media"] as? [String: Any])?["enum"] as? [String])
        #expect(media == MediaMode.allCases.map(\.rawValue))
        let replicas = try #require(((schema["$defs"] as? [String: Any])?["replicas"] as? [String: Any])?["properties"] as? [String: Any])
        let count = try #require(replicas["count"] as? [String: Any])
        #expect(count["minimum"] as? Int == FleetDescription.countRange.lowerBound)
        #expect(count["maximum"] as? Int == FleetDescription.countRange.upperBound)
        let scale = try #require(replicas["timeScale"] as? [String: Any])
        #expect(scale["exclusiveMinimum"] as? Int == 0)
        #expect(scale["maximum"] as? Double == FleetDescription.maximumTimeScale)
        let port = try #require(replicas["port"] as? [String: Any])
        #expect(port["minimum"] as? Int == 0 && port["maximum"] as? Int == 65535)
        // The shipped schemas are not profiles.
        #expect(!Self.catalog.shippedNames.contains { $0.hasSuffix(".schema") })
    }
}
