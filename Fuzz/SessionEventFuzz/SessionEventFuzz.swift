import Foundation
import FuzzReplay
import Playback
import SenderProtocol
import ServerSentEvents

/// Any bytes as a receiver's `GET /events` stream, as a sender reads it: split into pieces where the
/// selector says (a stream arrives in whatever pieces the network makes), decoded into events within a
/// small cap, and each event read as a `SessionEvent`. An event the sender could read must write and read
/// back as the same event: the wire has one shape.
func sessionEventFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    var decoder = EventStreamDecoder(maximumEventBytes: 4_096)
    let piece = max(1, Int(input.selector))
    input.body.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
        var start = 0
        while start < bytes.count, !decoder.tooLarge {
            let end = min(bytes.count, start + piece)
            for event in decoder.decode(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) {
                guard let read = try? SessionEvent(eventName: event.event, data: event.data), let engineEvent = read.event else { continue }
                let written = SessionEvent(engineEvent, session: read.session).serverSentEvent()
                guard let again = try? SessionEvent(eventName: written.name, data: written.data), again.event == engineEvent else {
                    fatalError("an event read from the wire does not read back as itself: \(event.data)")
                }
            }
            start = end
        }
    }
    return 0
}

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { sessionEventFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), sessionEventFuzz) }
}
#endif
