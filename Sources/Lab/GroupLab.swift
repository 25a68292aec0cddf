import Coordination
import Foundation

/// `airlab lab run --group GROUP.json`: a group scenario played by real receivers. Each participant
/// plays on the receiver it names (`"receiver": "HOST:PORT"`) or on a local `airlabd` of its own
/// profile, in a process of its own as on a TV of its own; its playlist is served to it when local;
/// the first participant's receiver hosts the group (`GroupLabRun`). Participants play what their
/// senders cast: scripts and faults are group simulate's, and the command refuses a file with them.
public struct GroupLab: Sendable {
    public var scenario: GroupScenario
    /// Where the scenario's relative playlist paths start: the group file's folder.
    public var folder: URL
    public var seed: UInt64
    public var timeScale: Double?
    public var password: String?
    /// Where the lab says what a person may want at once: the live console of each local fleet it starts.
    public var announce: @Sendable (String) -> Void = { _ in }

    public init(scenario: GroupScenario, folder: URL, seed: UInt64) {
        self.scenario = scenario
        self.folder = folder
        self.seed = seed
    }

    /// Plays the group to its end: its report, or why a receiver failed it; nil when `interruption`
    /// ended it (every participant was told to stop). Local daemons and served folders end with it.
    public func run(interruption: Interruption) async throws(LabRunError) -> Result<GroupReport, ReceiverError>? {
        var fleets: [LocalFleet] = []
        var served: [ServedPlaylist] = []
        func cleanUp() async {
            for playlist in served { playlist.stop() }
            for fleet in fleets { await fleet.stop() }
        }
        var participants: [GroupLabRun.Participant] = []
        for participant in scenario.participants {
            let receiver: Receiver
            if let named = participant.receiver {
                guard let address = ReceiverAddress(parsing: named) else {
                    await cleanUp()
                    throw LabRunError("participant '\(participant.name)': receiver '\(named)' is not HOST:PORT")
                }
                receiver = Receiver(address: address, profile: participant.profile)
            } else {
                let started: Receiver?
                do throws(FleetError) {
                    let fleet = try await LocalFleet.start(profiles: [participant.profile], timeScale: timeScale)
                    fleets.append(fleet)
                    if let console = fleet.console { announce("participant '\(participant.name)': live console \(console)\n") }
                    started = fleet.receivers.first
                } catch {
                    await cleanUp()
                    throw LabRunError("participant '\(participant.name)': \(error)")
                }
                guard let started else {
                    await cleanUp()
                    throw LabRunError("participant '\(participant.name)': its local airlabd announced no receiver")
                }
                receiver = started
            }
            let playlist = participant.playlist(in: folder)
            do throws(PlaylistError) {
                let serving = try ServedPlaylist.prepare(playlist, for: [receiver])
                served.append(serving)
                participants.append(GroupLabRun.Participant(
                    name: participant.name, receiver: receiver, url: serving.url(for: receiver), profile: participant.profile,
                    policy: participant.policy, stitched: participant.stitched?.argument, adFree: participant.adFree))
            } catch {
                await cleanUp()
                throw LabRunError("participant '\(participant.name)': \(error)")
            }
        }
        let lab = GroupLabRun(contentID: scenario.contentID, policy: scenario.policy, participants: participants, seed: seed, password: password)
        let runTask = Task { try await lab.run() }
        let watcher = Task {
            await interruption.wait()
            if !Task.isCancelled { runTask.cancel() }
        }
        let result: Result<GroupReport, ReceiverError>
        do {
            result = .success(try await runTask.value)
        } catch let error as ReceiverError {
            result = .failure(error)
        } catch {
            result = .failure(ReceiverError(receiver: "the group", problem: .connectionLost("\(error)")))
        }
        watcher.cancel()
        await cleanUp()
        return interruption.hasHappened ? nil : result
    }
}
