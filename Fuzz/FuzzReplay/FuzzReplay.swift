import Foundation

/// The fuzz targets' other life: built without `-D FUZZING` (as `swift build` builds every target), a
/// target is a program that runs its `LLVMFuzzerTestOneInput` over files, so the checked-in corpus and
/// every input a fuzzer once crashed on are replayed by the ordinary test run.
public enum FuzzReplay {
    /// Runs `body` on every file named in `arguments` (a folder stands for the files in it, sorted) and
    /// exits 0; a file that cannot be read exits 2 naming it. A crash inside `body` is the failure.
    public static func main(_ arguments: ArraySlice<String>, _ body: (UnsafePointer<UInt8>, Int) -> CInt) -> Never {
        var count = 0
        for path in inputs(arguments) {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("\(path): cannot be read\n".utf8))
                exit(2)
            }
            let bytes = [UInt8](data)
            // libFuzzer never passes a null pointer, even for an empty input; neither does the replay.
            _ = bytes.withUnsafeBufferPointer { buffer in
                body(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count)
            }
            count += 1
        }
        print("replayed \(count) inputs")
        exit(0)
    }

    private static func inputs(_ arguments: ArraySlice<String>) -> [String] {
        arguments.flatMap { path -> [String] in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [path] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(path)/\($0)" }
        }
    }
}
