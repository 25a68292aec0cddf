import Foundation
import Origin
import TestSupport
import Transport

/// A test origin on 127.0.0.1 and a free port over a scratch folder, with a transfer loop to fetch from
/// it; `stop()` ends both and removes the folder.
struct OriginFixture {
    let scratch: Scratch
    let origin: TestOrigin
    let loop = TransferLoop()

    init(plan: String? = nil, files: [String: Data] = [:]) throws {
        scratch = try Scratch()
        for (name, data) in files { try scratch.write(name, data) }
        let plan = try plan.map { try FaultPlan(json: Data($0.utf8)) } ?? FaultPlan()
        origin = try TestOrigin(root: scratch.url, plan: plan)
        try origin.start()
    }

    func url(_ path: String) -> String { origin.baseURL + path }

    func fetch(_ path: String, keepBody: Bool = true, configure: (inout TransferRequest) -> Void = { _ in }) async -> TransferResult {
        var request = TransferRequest(url: url(path), totalTimeout: .seconds(30), bodyLimit: keepBody ? 64 << 20 : nil)
        configure(&request)
        return await loop.fetch(request)
    }

    /// The origin's rows once `count` are in (a response can end at the client a moment before the
    /// origin logs it), within a deadline.
    func rows(_ count: Int) async -> [OriginLogRow] {
        await origin.log.rows(count: count, within: .seconds(10))
    }

    func stop() {
        loop.stop()
        origin.stop()
        scratch.remove()
    }

    /// Bytes that differ from position to position, so a wrong slice cannot pass for the right one.
    static func pattern(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
