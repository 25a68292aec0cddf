import Foundation
import Lab
import Playback
import SenderProtocol

/// `airlab calibrate`: casts the calibration set to one receiver `repeats` times and follows each cast
/// through `/playback-info` only, polled at `pollInterval`, as a sender follows a real device (airlab's
/// own event stream is not used, so what runs against airlabd is what runs against a TV).
///
/// Each repeat casts the ad playlist and reads it to its end, then casts the primary alone and seeks
/// in it three times.
public struct CalibrationRun: Sendable {
    public var receiver: Receiver
    public var client: ReceiverClient
    public var media: CalibrationSet
    public var repeats = 3
    public var pollInterval = 0.02
    /// Where the seeks of each repeat go, in turn, each after a little play.
    static let seekTargets: [Double] = [12, 4, 18]
    /// Reads that fail one after another before the receiver counts as gone.
    static let failedReadsAllowed = 50

    public init(receiver: Receiver, client: ReceiverClient, media: CalibrationSet) {
        self.receiver = receiver
        self.client = client
        self.media = media
    }

    /// Runs the calibration; `progress` hears a line at each step.
    public func run(progress: @Sendable (String) -> Void = { _ in }) async throws(CalibrationError) -> CalibrationReport {
        progress("making the calibration media in \(media.folder.path)")
        try await media.stage()
        let served: ServedPlaylist
        do throws(PlaylistError) {
            served = try ServedPlaylist.prepare(media.adPlaylistURL.path, for: [receiver])
        } catch {
            throw CalibrationError(error.description)
        }
        defer { served.stop() }
        let adURL = served.url(for: receiver)
        let seekURL = String(adURL.dropLast(CalibrationSet.adPlaylist.count)) + CalibrationSet.seekPlaylist
        let info = try? await client.serverInfo()

        let clock = Stopwatch()
        var casts: [AdCastMeasurement] = []
        var seeks: [Double] = []
        var sessions: [String] = []
        var polls = 0
        for round in 1...max(1, repeats) {
            progress("repeat \(round) of \(repeats): the ads")
            let (adSession, accepted, adConnection) = try await cast(adURL, clock: clock)
            defer { adConnection.close() }
            sessions.append(adSession)
            let limit = clock.now + Double(CalibrationSet.primarySeconds + CalibrationSet.ads.count * (CalibrationSet.adSeconds + 10) + 30)
            let samples = try await poll(on: adConnection, clock: clock, until: limit) { samples in
                // Over once what played is gone again.
                samples.contains { $0.duration != nil } && samples.last?.duration == nil
            }
            polls += samples.count
            casts.append(AdCastMeasurement(samples: samples, acceptedAt: accepted))

            progress("repeat \(round) of \(repeats): seeks")
            let (seekSession, _, seekConnection) = try await cast(seekURL, clock: clock)
            defer { seekConnection.close() }
            sessions.append(seekSession)
            for target in Self.seekTargets {
                // A little play first, so the seek starts from playing, as a viewer's does.
                let settled = try await poll(on: seekConnection, clock: clock, until: clock.now + 30) { samples in
                    samples.filter(\.playing).count >= Int(1 / pollInterval)
                }
                polls += settled.count
                let sentAt = clock.now
                do throws(ReceiverError) {
                    try await client.send(.seek(to: target), on: seekConnection)
                } catch {
                    throw CalibrationError("the seek to \(target) s failed: \(error)")
                }
                let landing = try await poll(on: seekConnection, clock: clock, until: clock.now + 30) { samples in
                    SeekMeasurement.latency(to: target, sentAt: sentAt, samples: samples) != nil
                }
                polls += landing.count
                if let latency = SeekMeasurement.latency(to: target, sentAt: sentAt, samples: landing) { seeks.append(latency) }
            }
            try? await client.stop(on: seekConnection)
        }
        return report(casts: casts, seeks: seeks, sessions: sessions, info: info, polls: polls, seconds: clock.now)
    }

    /// Casts `url` on a connection of its own, kept for the cast's polls and commands as a phone keeps
    /// it (on AirPlay 2 paired and encrypted, which a real receiver needs), and returns its session, the
    /// moment the receiver accepted it, and the connection. A receiver that starts paused, as tvOS does,
    /// is told to play.
    private func cast(_ url: String, clock: Stopwatch) async throws(CalibrationError) -> (session: String, acceptedAt: Double, connection: ReceiverConnection) {
        var order = PlayOrder(url: url)
        // Detached on an airlab receiver, so a poll that breaks the connection does not end a measurement.
        order.detached = true
        let started: StartedSession
        let connection: ReceiverConnection
        do throws(ReceiverError) {
            connection = try await client.connect()
            do throws(ReceiverError) {
                started = try await client.play(order, on: connection)
            } catch {
                connection.close()
                throw error
            }
        } catch {
            throw CalibrationError("the receiver did not take the calibration cast: \(error)")
        }
        let accepted = clock.now
        if let info = try? await client.playbackInfo(on: connection), info.readyToPlay, info.rate == 0, info.status.timeControl == .paused {
            try? await client.send(.setRate(1), on: connection)
        }
        return (started.sessionID, accepted, connection)
    }

    /// Reads `/playback-info` every `pollInterval` until `done` says so or the clock passes `limit`.
    private func poll(
        on connection: ReceiverConnection, clock: Stopwatch, until limit: Double, done: ([PlaybackSample]) -> Bool
    ) async throws(CalibrationError) -> [PlaybackSample] {
        var samples: [PlaybackSample] = []
        var failures = 0
        while clock.now < limit {
            await client.keepAlive(connection)
            let before = clock.now
            do throws(ReceiverError) {
                let info = try await client.playbackInfo(on: connection)
                samples.append(PlaybackSample(sent: before, answered: clock.now, info))
                failures = 0
                if done(samples) { return samples }
            } catch {
                failures += 1
                guard failures < Self.failedReadsAllowed else { throw CalibrationError("the receiver stopped answering /playback-info: \(error)") }
            }
            let wait = before + pollInterval - clock.now
            if wait > 0 { try? await Task.sleep(for: .milliseconds(Int64(wait * 1000))) }
        }
        return samples
    }

    private func report(
        casts: [AdCastMeasurement], seeks: [Double], sessions: [String], info: ServerInfo?, polls: Int, seconds: Double
    ) -> CalibrationReport {
        let milliseconds = { (values: [Double]) in CalibrationReport.Spread(values.map { $0 * 1000 }) }
        let dimensions = CalibrationSet.ads.compactMap(\.dimension).map { name in
            CalibrationReport.Dimension(
                dimension: name, entryMilliseconds: milliseconds(casts.compactMap { $0.entries[name] }),
                exitMilliseconds: milliseconds(casts.compactMap { $0.exits[name] }),
                costMilliseconds: milliseconds(casts.compactMap { cast in
                    guard let entry = cast.entries[name], let splice = cast.entries["splice"] else { return nil }
                    return entry - splice
                }),
                unplayed: casts.filter { $0.entries[name] == nil }.count)
        }
        let formatter = ISO8601DateFormatter()
        return CalibrationReport(
            receiver: receiver.label, profile: info?.profile, model: info?.model, date: formatter.string(from: Date()), repeats: casts.count,
            pollMilliseconds: pollInterval * 1000, pollsPerSecond: seconds > 0 ? Double(polls) / seconds : 0,
            startupMilliseconds: milliseconds(casts.compactMap(\.startup)), seekMilliseconds: milliseconds(seeks), dimensions: dimensions,
            forwardBufferSeconds: CalibrationReport.Spread(casts.flatMap(\.forwardBuffer)), stallMilliseconds: casts.flatMap(\.stalls).map { $0 * 1000 }.filter(\.isFinite),
            sessions: sessions, seconds: seconds)
    }
}

/// Seconds since the calibration began, on the monotonic clock.
struct Stopwatch {
    private let start = ContinuousClock.now

    var now: Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
