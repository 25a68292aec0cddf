import Coordination
import Foundation
@testable import Reports
import Testing

/// The sync-error strip draws |e| from the report's pieces: to the axis where e crosses zero, scaled
/// to the larger of the error and the tolerance, with the tolerance line at its height.
@Suite("Group sync-error strip")
struct GroupSyncStripTests {
    @Test("A piece from -0.5 s to 1 s over 3 s touches the base line at 1 s, where e crosses zero; the 0.5 s tolerance is half way up")
    func crossing() {
        let sync = GroupReport.SyncError(pieces: [GroupReport.SyncPiece(start: 0, end: 3, from: -0.5, to: 1)], tolerance: 0.5)
        let svg = GroupSyncStripSVG.render(sync, top: 42, x: { $0 * 10 })
        // Base at 42 + 16; |e| = 0.5 at 50 (half the 1 s scale), 1 at the top, 42.
        #expect(svg.contains("d=\"M0.0 58.0 L0.0 50.0 L10.0 58.0 L30.0 42.0 L30.0 58.0 Z\""), "\(svg)")
        #expect(svg.contains("class=\"sync-tolerance\" x1=\"0.0\" y1=\"50.0\""))
        #expect(svg.contains("max 1.000 s, p95"))
    }

    @Test("An error below the tolerance leaves the tolerance line inside the strip, above the error; no pieces, no area")
    func belowTolerance() {
        let small = GroupReport.SyncError(pieces: [GroupReport.SyncPiece(start: 0, end: 1, from: 0.1, to: 0.1)], tolerance: 0.5)
        let svg = GroupSyncStripSVG.render(small, top: 0, x: { $0 })
        // Scaled to 1.25 × 0.5: the tolerance at 16 − 16 × 0.8 = 3.2.
        #expect(svg.contains("y1=\"3.2\""))
        let empty = GroupSyncStripSVG.render(GroupReport.SyncError(pieces: [], tolerance: 0.5), top: 0, x: { $0 })
        #expect(!empty.contains("sync-error\"") && empty.contains("sync-tolerance"))
    }
}
