import Foundation
import TestSupport
import Testing

/// A participant's real stall reaches its group: `airlabd --media realtime` behind an origin paced
/// below what its profile's network needs, in a group hosted by the same receiver. Read from the
/// group's event stream, in order.
@Suite(.serialized, .ownThread) struct GroupStallDaemonTests {
    @Test("A grouped receiver in --media realtime whose buffer runs dry behind a throttled origin suspends its group with stallRecovery, and ends the suspension when it plays again")
    func realStallSuspendsTheGroup() async throws {
        try await RealtimeOriginTests.withOrigin(plan: RealtimeOriginTests.throttledPlan) { origin in
            let scratch = try Scratch()
            defer { scratch.remove() }
            let slow = try RealtimeOriginTests.slowTV(in: scratch)
            try await withDaemon(["--profile", slow, "--port", "0", "--time-scale", "2", "--media", "realtime"]) { daemon in
                let group = try await GroupDaemonTests.create(daemon, ["id": "g1", "contentID": "show", "policy": ["waitFor": ["stallRecovery"]]])
                let observer = try await GroupObserver.connect(port: daemon.port, group: group)
                defer { observer.close() }
                let joined = try await GroupDaemonTests.join(daemon, origin.baseURL + "/primary/index.m3u8", host: daemon, group: group, participant: "A")
                try #require(joined.status == 200, "\(joined)")

                // Until the suspension ends, or the session does (A leaves the group when it ends).
                let events = try await observer.waitFor { events in
                    events.contains { ($0.kind == "resumed" && $0["reason"] == "stallRecovery") || $0.kind == "left" }
                }
                let suspended = try #require(events.firstIndex { $0.kind == "suspended" && $0["reason"] == "stallRecovery" }, "\(events.map(\.kind))")
                let resumed = try #require(events.firstIndex { $0.kind == "resumed" && $0["reason"] == "stallRecovery" })
                #expect(suspended < resumed)
                #expect(events[suspended]["participant"] == "A" && events[resumed]["participant"] == "A")
            }
        }
    }
}
