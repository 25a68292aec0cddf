import Calibration
import Foundation
import FuzzReplay

/// Any bytes as the `/playback-info` readings of a calibration cast: every 17 bytes are one reading (a
/// flags byte saying whether it has a length, plays, has a buffer and a rate other than 1, then its
/// time, length, position and round trip as 32-bit floats, the last also its buffer), any number in
/// it, NaN and infinities included, as a hostile or broken receiver may answer. Reading them must not
/// crash; from finite readings every figure is finite; and the report's spread of them always encodes.
func calibrationSamplesFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var samples: [PlaybackSample] = []
    var offset = 0
    while offset + 17 <= bytes.count {
        func float(_ at: Int) -> Double {
            Double(Float(bitPattern: UInt32(bytes[offset + at]) | UInt32(bytes[offset + at + 1]) << 8 | UInt32(bytes[offset + at + 2]) << 16 | UInt32(bytes[offset + at + 3]) << 24))
        }
        let flags = bytes[offset]
        samples.append(PlaybackSample(
            time: float(1), uncertainty: abs(float(13)), duration: flags & 1 == 0 ? nil : float(5), position: float(9),
            rate: flags & 2 == 0 ? 1 : Double(flags) / 16, playing: flags & 4 != 0, loadedAhead: flags & 8 == 0 ? nil : float(13)))
        offset += 17
    }
    let cast = AdCastMeasurement(samples: samples, acceptedAt: samples.first?.time ?? 0)
    let figures = [cast.startup].compactMap { $0 } + Array(cast.entries.values) + Array(cast.exits.values) + cast.stalls + cast.forwardBuffer
    _ = cast.unplayed
    for target in [0.0, 4, 12, .nan] { _ = SeekMeasurement.latency(to: target, sentAt: 0, samples: samples) }
    let finiteReadings = samples.allSatisfy { [$0.time, $0.uncertainty, $0.position, $0.rate, $0.duration ?? 0, $0.loadedAhead ?? 0].allSatisfy(\.isFinite) }
    if finiteReadings, let wrong = figures.first(where: { !$0.isFinite }) {
        fatalError("finite readings gave a figure of \(wrong)")
    }
    if let spread = CalibrationReport.Spread(figures), (try? JSONEncoder().encode(spread)) == nil {
        fatalError("a spread that does not encode: \(spread.samples)")
    }
    return 0
}

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { calibrationSamplesFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), calibrationSamplesFuzz) }
}
#endif
