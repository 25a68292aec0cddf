import Cryptography
import Foundation
import Pairing
import TestSupport
import Testing

@Suite struct PairingFilesTests {
    @Test func theDeviceKeyIsMadeOnceAndKeptPrivate() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let folder = scratch.url.appendingPathComponent("state")
        let first = try DeviceIdentityFile.loadOrCreate(in: folder, identifier: "AA:BB")
        let again = try DeviceIdentityFile.loadOrCreate(in: folder, identifier: "AA:BB")
        #expect(first.key.publicKey == again.key.publicKey)
        let file = folder.appendingPathComponent(DeviceIdentityFile.fileName).path
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
    }

    @Test func aDamagedKeyFileIsAnErrorNamingIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(DeviceIdentityFile.fileName, "not hex\n")
        #expect(throws: PairingFileError(file: file.path, reason: "does not hold a 32-byte key as 64 hex digits")) {
            try DeviceIdentityFile.loadOrCreate(in: scratch.url, identifier: "AA:BB")
        }
    }

    @Test func pairedControllersPersistAndCanBeListedAndRemoved() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try PairingStore(folder: scratch.url)
        let one = PairedController(identifier: "one", publicKey: try Ed25519PrivateKey().publicKey, isAdmin: true)
        let two = PairedController(identifier: "two", publicKey: try Ed25519PrivateKey().publicKey, isAdmin: false)
        try store.add(one)
        try store.add(two)
        let reread = try PairingStore(folder: scratch.url)
        #expect(reread.list() == [one, two])
        #expect(reread.publicKey(for: "two") == two.publicKey)
        #expect(try reread.remove("one"))
        #expect(try !reread.remove("one"))
        #expect(try PairingStore(folder: scratch.url).list() == [two])
        let mode = try FileManager.default.attributesOfItem(atPath: scratch.url.appendingPathComponent(PairingStore.fileName).path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    /// A receiver without a state folder keeps its pairings in memory and writes nothing anywhere.
    @Test func aStoreInMemoryKeepsItsControllersAndWritesNoFile() throws {
        let store = PairingStore()
        let one = PairedController(identifier: "one", publicKey: try Ed25519PrivateKey().publicKey, isAdmin: true)
        try store.add(one)
        #expect(store.list() == [one] && store.publicKey(for: "one") == one.publicKey)
        #expect(try store.remove("one") && store.list().isEmpty)
    }

    @Test func aStoreFileThatIsNotAPairingListIsAnError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write(PairingStore.fileName, #"{"controllers": [{"identifier": "x", "publicKey": "zz", "permissions": 1}]}"#)
        #expect(throws: PairingFileError.self) { try PairingStore(folder: scratch.url) }
    }
}
