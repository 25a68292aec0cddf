import Foundation
import Testing
@testable import HLS

/// Parses a playlist that must be a media playlist, failing the test otherwise.
func mediaPlaylist(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (MediaPlaylist, [Diagnostic]) {
    let result = PlaylistParser.parse(text)
    let playlist = try #require(result.mediaPlaylist, "expected a media playlist; got \(result.diagnostics)", sourceLocation: sourceLocation)
    return (playlist, result.diagnostics)
}

func multivariantPlaylist(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (MultivariantPlaylist, [Diagnostic]) {
    let result = PlaylistParser.parse(text)
    let playlist = try #require(result.multivariantPlaylist, "expected a multivariant playlist; got \(result.diagnostics)", sourceLocation: sourceLocation)
    return (playlist, result.diagnostics)
}

extension Array where Element == Diagnostic {
    var codes: [String] { map(\.code.rawValue) }

    func first(_ code: DiagnosticCode) -> Diagnostic? {
        first { $0.code == code }
    }
}

func date(_ text: String) -> Date {
    ProgramDate.parse(text)!
}
