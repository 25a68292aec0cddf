import Foundation
import Glibc

/// Hands memory the allocator keeps free back to the kernel once a minute.
///
/// glibc's malloc keeps freed memory in its arenas (one per busy thread, up to eight a core) and
/// returns it only from the top of each heap. In the soak (50 receivers, 64 senders) a burst of casts
/// leaves free pages scattered through the arenas; trimming every minute gives them back (10-minute
/// runs ended at 112–124 MiB with it, 128–149 without, measured while Foundation still leaked a little
/// on every fetch; Loading now fetches through Transport's libcurl client, without Foundation's URLSession).
/// It costs a few milliseconds a minute.
enum MemoryTrim {
    static func start(every seconds: Double = 60) {
        // Swift's Glibc module does not export it; looked up at run time, and absent outside glibc.
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        let trim = unsafeBitCast(symbol, to: Trim.self)
        Thread {
            while true {
                Thread.sleep(forTimeInterval: seconds)
                _ = trim(0)
            }
        }.start()
    }
}
