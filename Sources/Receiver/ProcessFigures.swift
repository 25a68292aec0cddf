import Foundation

/// What the process uses, as the kernel reports it in `/proc/self`: resident memory and open
/// descriptors, for the process-wide `/metrics`.
public struct ProcessFigures: Sendable, Equatable {
    public var residentBytes: Int?
    public var openDescriptors: Int?

    public init(residentBytes: Int?, openDescriptors: Int?) {
        self.residentBytes = residentBytes
        self.openDescriptors = openDescriptors
    }

    /// Read now; a figure the system does not give (no `/proc`) is nil, and left out of the metrics.
    public static func current() -> ProcessFigures {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)).flatMap(residentBytes(inStatus:))
        // Listing the folder opens one descriptor of its own, which is not the process's.
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).map { max(0, $0.count - 1) }
        return ProcessFigures(residentBytes: status, openDescriptors: descriptors)
    }

    /// The `VmRSS:` line of `/proc/self/status` (in kB, which the kernel means as KiB), in bytes; nil
    /// without one or with a value that is not a whole number of at most 2^40 KiB.
    static func residentBytes(inStatus text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.dropFirst("VmRSS:".count).split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 2, fields[1] == "kB", let kibibytes = Int(fields[0]), (0...(1 << 40)).contains(kibibytes) else { return nil }
            return kibibytes * 1024
        }
        return nil
    }
}
