/// At most so many sessions at once on one host; the others wait, first come first served.
///
/// A lab run over a fleet of hundreds of receivers on a few hosts would otherwise open every session at
/// the same moment: a connection burst and, for receivers that fetch their media, hundreds of streams'
/// bandwidth on one machine. Hosts are told apart by the host part of their address as given: two names
/// of one machine count as two hosts, which nothing here can know better.
public actor HostSlots {
    public let limit: Int
    private var held: [String: Int] = [:]
    private var waiting: [String: [Waiter]] = [:]
    private var nextTicket = 0

    private struct Waiter {
        var ticket: Int
        var continuation: CheckedContinuation<Bool, Never>
    }

    /// - Parameter limit: sessions at once per host, at least 1.
    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Waits for a slot on `host`; false when the task was cancelled first (nothing is then held).
    public func acquire(_ host: String) async -> Bool {
        if Task.isCancelled { return false }
        if held[host, default: 0] < limit, waiting[host, default: []].isEmpty {
            held[host, default: 0] += 1
            return true
        }
        let ticket = nextTicket
        nextTicket += 1
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Cancelled before this ran: the handler's withdrawal would find nothing to resume.
                if Task.isCancelled {
                    continuation.resume(returning: false)
                } else {
                    waiting[host, default: []].append(Waiter(ticket: ticket, continuation: continuation))
                }
            }
        } onCancel: {
            Task { await self.withdraw(ticket, from: host) }
        }
    }

    /// Gives a slot back; the longest waiter on `host` takes it.
    public func release(_ host: String) {
        if var queue = waiting[host], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[host] = queue.isEmpty ? nil : queue
            next.continuation.resume(returning: true)
            return
        }
        held[host, default: 1] -= 1
        if held[host] ?? 0 <= 0 { held[host] = nil }
    }

    /// Sessions holding a slot on `host`.
    public func holding(_ host: String) -> Int { held[host, default: 0] }

    /// Sessions waiting for a slot on `host`.
    public func queued(_ host: String) -> Int { waiting[host]?.count ?? 0 }

    private func withdraw(_ ticket: Int, from host: String) {
        guard var queue = waiting[host], let index = queue.firstIndex(where: { $0.ticket == ticket }) else { return }
        let waiter = queue.remove(at: index)
        waiting[host] = queue.isEmpty ? nil : queue
        waiter.continuation.resume(returning: false)
    }
}
