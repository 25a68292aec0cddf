import Foundation
import Profiles
import Receiver
import Testing

/// The fleet `airlabd`'s flags describe, built as the daemon builds it, and the receivers it makes.
@Suite("A fleet built from airlabd's options")
struct FleetDescriptionTests {
    static let catalog = ProfileCatalog()

    static func fleet(
        _ profiles: [String], port: Int = 7000, name: String? = nil, password: String? = nil, state: String? = "/var/lib/airlab"
    ) throws -> [ReceiverConfiguration] {
        let description = try FleetDescription(
            profiles: profiles, firstPort: port, name: name, password: password, timeScale: 1, media: .probe, catalog: catalog)
        return try description.configurations(FleetDescription.Shared(stateDirectory: state.map { URL(fileURLWithPath: $0, isDirectory: true) }))
    }

    static func failure(_ profiles: [String], port: Int = 7000) -> FleetError? {
        do {
            _ = try fleet(profiles, port: port)
            return nil
        } catch let error as FleetError {
            return error
        } catch {
            Issue.record("not a FleetError: \(error)")
            return nil
        }
    }

    static func deviceID(_ configuration: ReceiverConfiguration) -> String {
        configuration.identity.deviceID
    }

    @Test("NAME*N makes N receivers named after the profile's display name with #1 … #N; a single one keeps the plain name")
    func replicaNames() throws {
        let display = try Self.catalog.profile("smart-tv-low").displayName
        let replicas = try Self.fleet(["smart-tv-low*20"])
        #expect(replicas.map(\.name) == (1...20).map { "\(display) #\($0)" })
        #expect(replicas.allSatisfy { $0.profile.name == "smart-tv-low" })
        #expect(try Self.fleet(["smart-tv-low"]).map(\.name) == [display])
        #expect(try Self.fleet(["smart-tv-low*1"]).map(\.name) == [display])
    }

    @Test("Replicas have distinct device ids, the same ones each time the fleet is built; the first keeps the id of a lone receiver")
    func replicaDeviceIDs() throws {
        let ids = try Self.fleet(["smart-tv-low*20"]).map(Self.deviceID)
        #expect(Set(ids).count == 20, "\(ids)")
        #expect(try Self.fleet(["smart-tv-low*20"]).map(Self.deviceID) == ids)
        #expect(try Self.fleet(["smart-tv-low"]).map(Self.deviceID) == [ids[0]])
        // A replica's id depends on its profile and index, not on the ports or names of the fleet around it.
        #expect(try Self.fleet(["soundbar", "smart-tv-low*3"], port: 9000, name: "Lab").map(Self.deviceID).suffix(3) == ids.prefix(3))
    }

    @Test("Ports follow on from --port across the groups, and --port 0 gives every receiver a free port")
    func consecutivePorts() throws {
        #expect(try Self.fleet(["smart-tv-low*3", "soundbar", "apple-tv-4k*2"], port: 8000).map(\.port) == [8000, 8001, 8002, 8003, 8004, 8005])
        #expect(try Self.fleet(["smart-tv-low*3", "soundbar"], port: 0).map(\.port) == [0, 0, 0, 0])
        #expect(try Self.fleet(["soundbar*10"], port: 65526).last?.port == 65535)
    }

    @Test("Each receiver has a state folder of its own: the directory for one, the profile's name for a lone profile, NAME-k for replicas")
    func stateFolders() throws {
        #expect(try Self.fleet(["soundbar"]).map { $0.stateDirectory?.path } == ["/var/lib/airlab"])
        let folders = try Self.fleet(["smart-tv-low*3", "soundbar"]).map { $0.stateDirectory?.lastPathComponent }
        #expect(folders == ["smart-tv-low-1", "smart-tv-low-2", "smart-tv-low-3", "soundbar"])
        #expect(try Self.fleet(["soundbar*2"], state: nil).allSatisfy { $0.stateDirectory == nil })
    }

    @Test("--profile NAME given twice is two replicas of NAME, as NAME*2 is")
    func repeatedProfileIsReplicas() throws {
        let repeated = try Self.fleet(["smart-tv-low", "smart-tv-low"])
        let counted = try Self.fleet(["smart-tv-low*2"])
        #expect(repeated.map(\.name) == counted.map(\.name))
        #expect(repeated.map(Self.deviceID) == counted.map(Self.deviceID))
        #expect(repeated.map(\.port) == counted.map(\.port))
        #expect(repeated.map(\.stateDirectory) == counted.map(\.stateDirectory))
    }

    @Test("--name names every receiver: with several groups each adds its profile, and replicas are numbered")
    func namePrefix() throws {
        #expect(try Self.fleet(["soundbar*2"], name: "Lab").map(\.name) == ["Lab #1", "Lab #2"])
        #expect(try Self.fleet(["soundbar*2", "apple-tv-hd"], name: "Lab").map(\.name) == ["Lab (soundbar) #1", "Lab (soundbar) #2", "Lab (apple-tv-hd)"])
    }

    @Test("A count outside 1…1000 or not a whole number, or ports past 65535, is an error naming the argument", arguments: [
        (["soundbar*0"], 7000, "--profile"), (["soundbar*1001"], 7000, "--profile"), (["soundbar*"], 7000, "--profile"),
        (["soundbar*two"], 7000, "--profile"), (["soundbar*99999999999999999999999"], 7000, "--profile"),
        (["soundbar*-3"], 7000, "--profile"), (["soundbar*10"], 65530, "--port"), (["soundbar", "apple-tv-hd*2"], 65534, "--profile"),
        (["soundbar"], 70000, "--port"), (["soundbar"], -1, "--port"),
    ])
    func outOfRange(_ profiles: [String], _ port: Int, _ named: String) throws {
        let error = try #require(Self.failure(profiles, port: port))
        #expect(error.file == nil)
        #expect(error.path == named, "\(error)")
        #expect(error.description.hasPrefix("\(named): "), "\(error)")
    }

    @Test("The password and time scale reach every replica")
    func sharedSettings() throws {
        let description = try FleetDescription(
            profiles: ["soundbar*3"], firstPort: 7000, name: nil, password: "secret", timeScale: 20, media: .verify, catalog: Self.catalog)
        let receivers = try description.configurations(FleetDescription.Shared())
        #expect(description.media == .verify)
        #expect(receivers.allSatisfy { $0.password == "secret" && $0.timeScale == 20 })
    }
}
