import JSONDocument
import Foundation
import FuzzReplay
import SenderProtocol

/// Any bytes as a property list, read the way both ends read the wire's (`PropertyListInput`, into a
/// JSON-shaped value), then written back by the receiver's own XML writer and read again: what a
/// sender sends can neither trap the reader nor produce a document the writer cannot write. The same
/// bytes are read as the AirPlay 2 messages that are property lists: an RTSP SETUP body, as the
/// receiver reads it, and an `/info` answer, as the sender reads a receiver's.
func propertyListFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    _ = try? StreamSetup.decode(bytes)
    _ = DeviceInfo(propertyList: bytes)
    guard let value = try? PropertyListInput.decode(JSONValue.self, from: bytes) else { return 0 }
    guard let written = try? XMLPropertyList(encoding: value).document() else { return 0 }
    _ = try? PropertyListInput.decode(JSONValue.self, from: written)
    return 0
}

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { propertyListFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), propertyListFuzz) }
}
#endif
