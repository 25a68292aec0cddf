import Foundation
import Pairing
import Playback
import SenderProtocol
import Sessions
import Synchronization

/// One `airlab lab run` of a playlist: the receivers (running ones, found by name, address or mDNS, or
/// a local fleet started for the run), the playlist served to them, the order played on each with at
/// most `sessionsPerHost` at once on a host, a live board of their progress, and the report with each
/// session's fetch trace. The command only reads options and writes the report's files.
public struct LabRun: Sendable {
    /// Where the receivers come from.
    public enum Receivers: Sendable {
        /// Running receivers: the entries as `--receivers` and `--receivers-file` give them.
        case running([ReceiverEntry], discoveryTimeout: Double)
        /// A local `airlabd` started for the run, one receiver a profile.
        case localFleet(profiles: [String], timeScale: Double?, media: MediaMode)
    }

    public struct Outcome: Sendable {
        /// Every session, and the receivers that could not play (not found, or failed).
        public var report: SimulationReport
        public var receivers: [Receiver]
        /// Each session's fetch trace by the receiver's index, or why the receiver could not give it.
        public var fetchTraces: [Int: Result<FetchTrace, ReceiverError>]
        /// Ctrl-C ended the run: every session was told to stop.
        public var interrupted: Bool
    }

    public var playlist: String
    public var order: PlayOrder
    public var seed: UInt64
    public var password: String?
    public var protocolChoice = ReceiverClient.ProtocolChoice.automatic
    public var pairings: SenderPairings?
    public var sessionsPerHost: Int
    public var receivers: Receivers

    public init(playlist: String, order: PlayOrder, seed: UInt64, receivers: Receivers) {
        self.playlist = playlist
        self.order = order
        self.seed = seed
        self.receivers = receivers
        sessionsPerHost = FleetRun.defaultSessionsPerHost
    }

    /// Plays the run to its end, or until `interruption`; the board writes through `write`.
    public func run(interruption: Interruption, interactive: Bool, write: @escaping @Sendable (String) -> Void) async throws(LabRunError) -> Outcome {
        let slots = HostSlots(limit: sessionsPerHost)
        var fleet: LocalFleet?
        var chosen: [Receiver]
        var missing: [SimulationReport.Failure] = []
        switch receivers {
        case .running(let entries, let discoveryTimeout):
            let selection: ReceiverSelection
            do {
                selection = try await ReceiverSelection.resolve(
                    entries, directory: ReceiverDirectory(timeout: .milliseconds(Int(discoveryTimeout * 1000))), slots: slots)
            } catch {
                throw LabRunError("cannot look for receivers over mDNS: \(error); give HOST:PORT addresses, or start a local fleet with --profile")
            }
            chosen = selection.chosen
            missing = selection.missing.map {
                .init(profile: $0, reason: ReceiverError(receiver: "receiver \"\($0)\"", problem: .notFoundOnNetwork("did not answer on mDNS")).description)
            }
            if chosen.isEmpty && missing.isEmpty {
                throw LabRunError("no airlab receiver answered on mDNS within \(discoveryTimeout.plainText) s; start some (airlabd) or give --profile")
            }
        case .localFleet(let profiles, let timeScale, let media):
            do throws(FleetError) {
                fleet = try await LocalFleet.start(profiles: profiles, timeScale: timeScale, media: media)
            } catch {
                throw LabRunError(error.description)
            }
            chosen = fleet?.receivers ?? []
            if let console = fleet?.console { write("live console of the local fleet: \(console)\n") }
        }
        let receivers = chosen

        let served: ServedPlaylist
        do throws(PlaylistError) {
            served = try ServedPlaylist.prepare(playlist, for: receivers)
        } catch {
            await fleet?.stop()
            throw LabRunError(error.description)
        }
        let board = FleetBoard(receivers: receivers, interactive: interactive, write: write)
        var run = FleetRun(order: order, playlist: playlist, seed: seed, password: password)
        run.protocolChoice = protocolChoice
        run.pairings = pairings
        run.slots = slots
        let traces = Mutex<[Int: Result<FetchTrace, ReceiverError>]>([:])
        run.fetchTraces = { index, trace in traces.withLock { $0[index] = trace } }
        let runTask = Task { [run] in await run.run(on: receivers, url: { served.url(for: $0) }, update: { board.update($0, $1) }) }
        let watcher = Task {
            await interruption.wait()
            if !Task.isCancelled { runTask.cancel() }
        }
        var report = await runTask.value
        watcher.cancel()
        board.finish()
        served.stop()
        await fleet?.stop()
        report.failures += missing
        return Outcome(report: report, receivers: receivers, fetchTraces: traces.withLock { $0 }, interrupted: interruption.hasHappened)
    }
}

/// Why a lab run could not start: no receivers, or a playlist that cannot be served.
public struct LabRunError: Error, Sendable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
