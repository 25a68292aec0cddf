import Foundation
import TestSupport

/// The stream of the lab tests: TestSupport's ad-supported stream, its ads at 4 s and 8 s, in a
/// folder whose `show.m3u8` a `cast` can serve.
enum LabStream {
    /// - Parameters:
    ///   - assetBase: where the ads are fetched from; nil writes relative asset URIs, as a folder
    ///     served by `cast` needs.
    ///   - repeats: how many times the primary's segments play, for a cast that must outlast a test's steps.
    static func stage(assetBase: String? = nil, repeats: Int = 1) async throws -> Scratch {
        let scratch = try await AdSupportedStream.stage()
        try AdSupportedStream.writePlaylist(in: scratch, assetBase: assetBase, repeats: repeats)
        return scratch
    }
}
