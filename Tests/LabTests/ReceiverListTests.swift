import Foundation
import Testing
@testable import Lab

/// How a lab run's receivers are named: `--receivers` lists and receivers files, with port ranges.
@Suite("Receiver lists")
struct ReceiverListTests {
    @Test("A list mixes all, names, HOST:PORT and HOST:FIRST-LAST ranges, in order, with brackets for IPv6")
    func listEntries() throws {
        let entries = try ReceiverEntry.parse(list: "all, Living Room,10.0.0.5:7000, host-b.lab:7000-7002,[::1]:8000-8001")
        #expect(entries == [
            .everyDiscovered, .name("Living Room"),
            .address(ReceiverAddress(host: "10.0.0.5", port: 7000)),
            .address(ReceiverAddress(host: "host-b.lab", port: 7000)),
            .address(ReceiverAddress(host: "host-b.lab", port: 7001)),
            .address(ReceiverAddress(host: "host-b.lab", port: 7002)),
            .address(ReceiverAddress(host: "::1", port: 8000)),
            .address(ReceiverAddress(host: "::1", port: 8001)),
        ])
    }

    @Test("A receivers file takes an entry a line and ignores blank lines and comments")
    func fileEntries() throws {
        let text = """
            # host A: its airlabd's twenty replicas
            10.0.0.5:7000-7019

              Kitchen   # found on mDNS
            10.0.0.6:7000
            """
        let entries = try ReceiverEntry.parse(file: text, source: "hosts.txt")
        #expect(entries.count == 22)
        #expect(entries[19] == .address(ReceiverAddress(host: "10.0.0.5", port: 7019)))
        #expect(entries[20] == .name("Kitchen"))
        #expect(entries[21] == .address(ReceiverAddress(host: "10.0.0.6", port: 7000)))
    }

    @Test("A bad entry is an error naming the source, the line and the reason", arguments: [
        ("10.0.0.5:7010-7000", "hosts.txt:2: '10.0.0.5:7010-7000': the port range runs backwards (7010 is after 7000)"),
        ("10.0.0.5:0-10", "hosts.txt:2: '10.0.0.5:0-10': ports run from 1 to 65535"),
        ("10.0.0.5:7000-99999999999999999999", "hosts.txt:2: '10.0.0.5:7000-99999999999999999999': ports run from 1 to 65535"),
        ("10.0.0.5:1-65535", "hosts.txt:2: '10.0.0.5:1-65535': the range holds 65535 ports; at most 1000 in one entry"),
        ("10.0.0.5:70000", "hosts.txt:2: '10.0.0.5:70000': is neither HOST:PORT with a port from 1 to 65535 nor a receiver's name"),
        ("bad host:7000-7001", "hosts.txt:2: 'bad host:7000-7001': 'bad host' is not a host name or address"),
    ])
    func badEntries(entry: String, message: String) {
        #expect(throws: ReceiverListError.self) { try ReceiverEntry.parse(file: "10.0.0.1:7000\n" + entry, source: "hosts.txt") }
        do {
            _ = try ReceiverEntry.parse(file: "10.0.0.1:7000\n" + entry, source: "hosts.txt")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("An empty entry in a list is refused, and no list grows past the receiver limit whatever its ranges")
    func limits() {
        #expect(throws: ReceiverListError.self) { try ReceiverEntry.parse(list: "10.0.0.5:7000,,10.0.0.6:7000") }
        let hosts = (0..<11).map { "10.0.1.\($0):7000-7999" }.joined(separator: "\n")
        do {
            _ = try ReceiverEntry.parse(file: hosts, source: "big.txt")
            Issue.record("11,000 receivers were accepted")
        } catch {
            #expect(error.line == 11)
            #expect(error.reason == "the list would hold more than 10000 receivers")
        }
    }

    @Test("A receivers file that is missing or names nothing is an error naming it")
    func unreadableFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("receivers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.txt")
        try Data("# nothing yet\n\n".utf8).write(to: empty)
        #expect(throws: ReceiverListError(source: empty.path, line: nil, entry: empty.path, reason: "names no receiver")) {
            try ReceiverEntry.read(file: empty.path)
        }
        let missing = folder.appendingPathComponent("missing.txt").path
        do {
            _ = try ReceiverEntry.read(file: missing)
            Issue.record("a missing file was read")
        } catch {
            #expect(error.source == missing && error.reason.hasPrefix("cannot be read"))
        }
    }
}

/// The per-host bound of a lab run's sessions.
@Suite("Host slots")
struct HostSlotsTests {
    @Test("Past the limit a host's sessions wait, first come first served; another host is not held up")
    func limitPerHost() async throws {
        let slots = HostSlots(limit: 1)
        #expect(await slots.acquire("a"))
        let order = Order()
        let second = Task { await slots.acquire("a") ? await order.append(2) : () }
        try await until { await slots.queued("a") == 1 }
        let third = Task { await slots.acquire("a") ? await order.append(3) : () }
        try await until { await slots.queued("a") == 2 }
        #expect(await slots.acquire("b"), "host b has a slot of its own")
        #expect(await order.values.isEmpty)

        await slots.release("a")
        await second.value
        #expect(await order.values == [2])
        #expect(await slots.holding("a") == 1)
        #expect(await slots.queued("a") == 1)
        await slots.release("a")
        await third.value
        #expect(await order.values == [2, 3])
        await slots.release("a")
        #expect(await slots.holding("a") == 0)
    }

    @Test("A waiter whose task is cancelled leaves the queue without a slot, and the next one is served")
    func cancelledWaiter() async throws {
        let slots = HostSlots(limit: 1)
        #expect(await slots.acquire("a"))
        let cancelled = Task { await slots.acquire("a") }
        try await until { await slots.queued("a") == 1 }
        cancelled.cancel()
        #expect(await cancelled.value == false)
        #expect(await slots.queued("a") == 0)
        let next = Task { await slots.acquire("a") }
        try await until { await slots.queued("a") == 1 }
        await slots.release("a")
        #expect(await next.value)
        #expect(await slots.holding("a") == 1)
    }

    actor Order {
        var values: [Int] = []
        func append(_ value: Int) { values.append(value) }
    }
}

/// Polls `condition` (bounded: 10 s) until it holds; fails the test if it never does.
func until(_ condition: () async -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    for _ in 0..<1000 {
        if await condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("the condition never held", sourceLocation: sourceLocation)
    throw CancellationError()
}
