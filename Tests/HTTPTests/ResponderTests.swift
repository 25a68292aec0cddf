import Foundation
import HTTP
import Testing
import TestSupport

/// Answers `/now` on the polling thread and everything else in a task; records connections' ends.
struct RecordingResponder: HTTPResponder {
    let requests = Shared<[HTTPConnectionID]>([])
    let closed = Shared<[HTTPConnectionID]>([])

    func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        requests.update { $0.append(request.connection) }
        return request.path == "/now" ? .text("immediate") : nil
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        .text("from a task")
    }

    func connectionClosed(_ connection: HTTPConnectionID) {
        closed.update { $0.append(connection) }
    }
}

@Suite("Responders")
struct ResponderTests {
    @Test("An immediate response is used when the responder has one, a task's otherwise")
    func immediateOrTask() async throws {
        let fixture = try ServerFixture(responder: RecordingResponder())
        defer { fixture.stop() }

        let result = try await fixture.curl([fixture.url("/now"), "-w", "\n", fixture.url("/later")])

        #expect(result.stdout == "immediate\nfrom a task\n")
    }

    @Test("connectionClosed names each connection that ended with the id its requests carried")
    func connectionClosedReportsIDs() async throws {
        let responder = RecordingResponder()
        let fixture = try ServerFixture(responder: responder)
        defer { fixture.stop() }

        _ = try await fixture.curl([fixture.url("/a"), fixture.url("/b")])
        _ = try await fixture.curl([fixture.url("/c")])

        #expect(try await fixture.eventually { responder.closed.current.count == 2 })
        let requests = responder.requests.current
        #expect(requests.count == 3)
        #expect(requests[0] == requests[1])
        #expect(requests[1] != requests[2])
        #expect(Set(responder.closed.current) == Set(requests))
    }
}
