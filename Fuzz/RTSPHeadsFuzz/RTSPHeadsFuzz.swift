import Foundation
import FuzzReplay
import HTTP

/// Any bytes through `RTSPTranslation`, as requests (`requests`) or as answers (`answers`) by the
/// selector's low bit, on the receiver's side or the sender's by its next bit (a receiver's relay reads
/// what a sender writes and what libmicrohttpd answers; a sender's, what libcurl writes and what a
/// receiver answers), in pieces of the rest of the selector's size; and as an event channel's requests
/// (`takeRequest`). Translation must never trap, and
/// the pieces must not matter: the same bytes in one piece give the same output, or the same failure.
func rtspHeadsFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let bytes = [UInt8](input.body)
    let answers = input.selector & 1 == 1
    let side: RTSPTranslation.Side = input.selector & 2 == 2 ? .sender : .receiver
    let piece = max(1, Int(input.selector >> 2))
    // The answers need requests to answer: a fixed RTSP one first, as each side sees one.
    let request = side == .receiver ? "SETUP rtsp://h/1 RTSP/1.0\r\nCSeq: 3\r\n\r\n" : "SETUP /1 HTTP/1.1\r\nCSeq: 3\r\n\r\n"
    func translate(_ pieces: [[UInt8]]) -> [UInt8]? {
        var translation = RTSPTranslation(side: side)
        if answers { _ = try? translation.requests(Array(request.utf8)) }
        var output: [UInt8] = []
        for piece in pieces {
            guard let translated = try? (answers ? translation.answers(piece) : translation.requests(piece)) else { return nil }
            output += translated
        }
        return output
    }
    // The same bytes as what a receiver writes on an event channel, taken a request at a time: each
    // request taken is gone from the buffer, so this ends.
    var channel = bytes
    while let request = try? RTSPTranslation.takeRequest(from: &channel) {
        if request.target.count > 200 { fatalError("a request's target is kept whole") }
    }
    let whole = translate([bytes])
    let split = translate(stride(from: 0, to: bytes.count, by: piece).map { Array(bytes[$0..<min(bytes.count, $0 + piece)]) })
    // A failure may come at a later piece than in one piece only through bytes it had not seen: compare
    // the outputs only when both read everything.
    if let whole, let split, whole != split {
        fatalError("the same bytes in pieces of \(piece) translate differently")
    }
    return 0
}

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { rtspHeadsFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), rtspHeadsFuzz) }
}
#endif
