import Foundation
import SenderProtocol
import Sessions
import Synchronization

/// A cast the sender stays with, as a phone does: `/play` and the polling that follows go on one
/// connection kept open for the whole session, events arrive on a second one, and the cast ends when
/// the session does or when the user interrupts it (Ctrl-C), which stops the session on the receiver.
public struct AttachedCast: Sendable {
    public var client: ReceiverClient
    public var order: PlayOrder
    /// How often the position is polled with `GET /scrub`; the polls also keep the `/play`
    /// connection from going idle, which would end the session.
    public var pollInterval: Duration = .milliseconds(500)

    public enum Outcome: Sendable {
        /// The session ended by itself (or the receiver ended it); its report.
        case ended(StartedSession, SessionReport)
        /// The user interrupted the cast and the receiver was told to stop; the report when it could be read.
        case interrupted(StartedSession?, SessionReport?)
    }

    public init(client: ReceiverClient, order: PlayOrder) {
        self.client = client
        var order = order
        order.detached = false
        self.order = order
    }

    /// Casts and follows the session to its end.
    ///
    /// - Parameters:
    ///   - started: called once the receiver has started the session.
    ///   - progress: called whenever what is known of the session changes.
    public func run(
        interruption: Interruption, started: @escaping @Sendable (StartedSession) -> Void = { _ in },
        progress: @escaping @Sendable (SessionProgress) -> Void = { _ in }
    ) async throws(ReceiverError) -> Outcome {
        let feed = try await client.subscribe()
        // Reading starts now; events of the new session that arrive before `/play` answers wait in the stream.
        let events = feed.events
        // The /play connection, kept until the cast ends: on AirPlay 2 paired and set up first. With a
        // password, an AirPlay 1 receiver closes the connection of the first, unanswered /play (it does
        // not read a body it refuses), and libcurl sends the answer on a new one: the one that is kept.
        let connection: ReceiverConnection
        do throws(ReceiverError) {
            connection = try await client.connect()
        } catch {
            feed.close()
            throw error
        }
        defer {
            feed.close()
            connection.close()
        }

        let session: StartedSession
        switch await startOrInterrupt(connection: connection, interruption: interruption) {
        case .success(let value?): session = value
        case .success(nil): return .interrupted(nil, nil)
        case .failure(let error): throw error
        }
        started(session)

        let state = Mutex(SessionProgress())
        state.withLock { $0.sessionID = session.sessionID }
        let publish: @Sendable ((inout SessionProgress) -> Void) -> Void = { change in
            let current = state.withLock { value -> SessionProgress in
                change(&value)
                return value
            }
            progress(current)
        }
        publish { $0.state = "loading" }

        let end = await withTaskGroup(of: CastEnd?.self) { group -> CastEnd in
            group.addTask {
                do {
                    for try await event in events where event.session == session.sessionID {
                        publish { $0.apply(event) }
                        if event.knownKind == .ended { return .ended }
                    }
                    return Task.isCancelled ? nil : .lost(client.failure(.connectionLost("the receiver closed its event stream")))
                } catch let error as ReceiverError {
                    return .lost(error)
                } catch {
                    return .lost(client.failure(.connectionLost("\(error)")))
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    // A failed poll is not the end: if the connection broke, the session ends and says so.
                    await client.keepAlive(connection)
                    guard let position = try? await client.progress(on: connection) else { return nil }
                    publish { $0.apply(position) }
                    try? await Task.sleep(for: pollInterval)
                }
                return nil
            }
            group.addTask {
                await interruption.wait()
                return Task.isCancelled ? nil : .interrupted
            }
            var result = CastEnd.lost(client.failure(.connectionLost("the cast ended without a reason")))
            for await end in group {
                guard let end else { continue }
                result = end
                break
            }
            // Stopped before the poll is cancelled: cancelling a poll in flight closes /play's
            // connection, and a receiver that saw that first would end the session for it instead.
            if case .interrupted = result { try? await client.stop() }
            group.cancelAll()
            return result
        }

        switch end {
        case .ended:
            return .ended(session, try await client.report(ofSession: session.sessionID))
        case .interrupted:
            connection.close()
            return .interrupted(session, try? await client.report(ofSession: session.sessionID))
        case .lost(let error):
            throw error
        }
    }

    private enum CastEnd: Sendable {
        case ended, interrupted
        case lost(ReceiverError)
    }

    /// Sends `/play`; Ctrl-C while the receiver loads closes the connection and stops the receiver.
    private func startOrInterrupt(connection: ReceiverConnection, interruption: Interruption) async -> Result<StartedSession?, ReceiverError> {
        let client = client
        let order = order
        return await withTaskGroup(of: Result<StartedSession?, ReceiverError>?.self) { group in
            group.addTask {
                do throws(ReceiverError) {
                    return .success(try await client.play(order, on: connection))
                } catch {
                    return interruption.hasHappened ? nil : .failure(error)
                }
            }
            group.addTask {
                await interruption.wait()
                guard !Task.isCancelled else { return nil }
                connection.close()
                try? await client.stop()
                return .success(nil)
            }
            var outcome: Result<StartedSession?, ReceiverError> = .success(nil)
            for await result in group {
                guard let result else { continue }
                outcome = result
                break
            }
            group.cancelAll()
            return outcome
        }
    }
}
