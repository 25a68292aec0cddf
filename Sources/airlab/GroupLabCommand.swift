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
        var lab = GroupLab(scenario: scenario, folder: URL(fileURLWithPath: file).deletingLastPathComponent(), seed: seed)
        lab.timeScale = timeScale
        lab.password = parsed.values("password").last
        lab.announce = { Terminal.write($0) }
        let played: Result<GroupReport, ReceiverError>?
        do throws(LabRunError) {
            played = try await lab.run(interruption: Interruption.onInterruptSignal())
        } catch {
            throw .other(error.description)
        }
        guard let result = played else {
            Terminal.error("airlab lab run: interrupted; every participant was told to stop")
            return CastCommand.interruptedStatus
        }
        let report: GroupReport
        switch result {
        case .success(let played): report = played
        case .failure(let error): throw .receiver(error)
        }
        let frames = await ReportFrames.groupFrames(scenario.participants, folder: URL(fileURLWithPath: file).deletingLastPathComponent())
        let files = [
            ("report.json", GroupReportJSON.render(report)),
            ("junit.xml", GroupJUnitReport.render(report, thresholds: thresholds)),
            ("report.html", GroupTimelineSVG.page(report, frames: frames)),
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
