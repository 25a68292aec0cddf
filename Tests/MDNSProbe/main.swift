import Discovery
import Foundation

// airlab-mdns-probe: starts a ServicePublisher in a process of its own and prints what became of it.
//
// The tests need a fresh process for a missing system bus: libdbus reads DBUS_SYSTEM_BUS_ADDRESS once
// per process, so pointing it elsewhere inside the test process would change every later test.
do {
    let publisher = try ServicePublisher()
    defer { publisher.stop() }
    try publisher.start()
    print("state: \(publisher.state)")
} catch {
    print("error: \(error)")
    exit(1)
}
