import Arguments
import Coordination
import Foundation
import Lab
import Reports
import SenderProtocol

/// `airlab lab run --group GROUP.json`: the group of `group simulate`, played by real receivers. Each
/// participant plays on the receiver it names (`"receiver": "HOST:PORT"` or an mDNS name) or on a
/// local `airlabd` of its own profile; the first participant's receiver hosts the group.
enum GroupLabCommand {
    static func run(_ parsed: ParsedCommand, file: String, out: URL, seed: UInt64, timeScale: Double?) async throws(CommandFailure) -> Int32 {
        let thresholds: GroupThresholds
        do throws(UsageError) {
            thresholds = try GroupSimulateCommand.Options.thresholds(parsed)
        } catch {
            throw .usage(error)
        }
        let scenario: GroupScenario
        do {
            scenario = try GroupScenario(parsing: try Data(contentsOf: URL(fileURLWithPath: file)))
        } catch let error as GroupScenario.Failure {
            throw .other("\(file): \(error)")
        } catch {
            throw .other("\(file): cannot be read (no such file or unreadable)")
        }
        // What only a simulation can do: a lab's participants play what their senders cast.
        if let scripted = scenario.participants.first(where: { !$0.script.steps.isEmpty || !$0.faults.isEmpty }) {
            throw .other("\(file): participant '\(scripted.name)' has a script or faults, which only group simulate plays; a lab group plays its casts as they are")
        }
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
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
                    throw .other("participant '\(participant.name)': receiver '\(named)' is not HOST:PORT")
                }
                receiver = Receiver(address: address, profile: participant.profile)
            } else {
                let started: Receiver?
                do throws(FleetError) {
                    // A daemon of its own: participants in separate processes, as on separate TVs.
                    let fleet = try await LocalFleet.start(profiles: [participant.profile], timeScale: timeScale)
                    fleets.append(fleet)
                    started = fleet.receivers.first
                } catch {
                    await cleanUp()
                    throw .other("participant '\(participant.name)': \(error)")
                }
                guard let started else {
                    await cleanUp()
                    throw .other("participant '\(participant.name)': its local airlabd announced no receiver")
                }
                receiver = started
            }
            let playlist = participant.playlist.contains("://") || participant.playlist.hasPrefix("/")
                ? participant.playlist : folder.appendingPathComponent(participant.playlist).path
            do throws(PlaylistError) {
                let serving = try ServedPlaylist.prepare(playlist, for: [receiver])
                served.append(serving)
                participants.append(GroupLabRun.Participant(
                    name: participant.name, receiver: receiver, url: serving.url(for: receiver), profile: participant.profile,
                    policy: participant.policy, stitched: participant.stitched?.argument, adFree: participant.adFree))
            } catch {
                await cleanUp()
                throw .other("participant '\(participant.name)': \(error)")
            }
        }
        let lab = GroupLabRun(
            contentID: scenario.contentID, policy: scenario.policy, participants: participants, seed: seed, password: parsed.values("password").last)
        let interruption = Interruption.onInterruptSignal()
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
        if interruption.hasHappened {
            Terminal.error("airlab lab run: interrupted; every participant was told to stop")
            return CastCommand.interruptedStatus
        }
        let report: GroupReport
        switch result {
        case .success(let played): report = played
        case .failure(let error): throw .receiver(error)
        }
        let files = [
            ("report.json", GroupReportJSON.render(report)),
            ("junit.xml", GroupJUnitReport.render(report, thresholds: thresholds)),
            ("report.html", GroupTimelineSVG.page(report)),
        ]
        do {
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            for (name, text) in files {
                try Data(text.utf8).write(to: out.appendingPathComponent(name), options: .atomic)
            }
        } catch {
            throw .other("\(out.path): the reports cannot be written (\(error.localizedDescription))")
        }
        print(GroupReportText.render(report), terminator: "")
        print("reports: " + files.map { out.appendingPathComponent($0.0).path }.joined(separator: ", "))
        return thresholds.fails(report) ? 1 : 0
    }
}
