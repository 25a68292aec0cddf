import Foundation
import Testing
import TestSupport

/// The fleet the daemon tests run: three shipped profiles, one receiver each, on ports 7000-7002 of the
/// namespace (which has ports of its own, so nothing on the machine can hold them).
private let fleetProfiles = ["apple-tv-4k", "smart-tv-low", "soundbar"]
private let firstPort: UInt16 = 7000

/// What a receiver must advertise, from the shipped profile it runs: the profile files are the source of
/// truth, so a test that read the daemon's own idea of them would check nothing.
private struct ExpectedReceiver {
    var profile: String
    /// The profile's display name: the receiver's friendly name and its mDNS instance name.
    var name: String
    var model: String
    var port: UInt16
    /// The profile's device record (`airplay`): what the TXT record must say. nil: the AirPlay 1 record.
    var airplay: [String: Any]?

    /// Whether the record makes it an AirPlay 2 device: bit 38 or 48 of its features.
    var isAirPlay2: Bool {
        guard let text = airplay?["features"] as? String else { return false }
        let words = text.split(separator: ",").compactMap { UInt64($0.dropFirst(2), radix: 16) }
        let bits = words.count == 2 ? words[0] | words[1] << 32 : words.first ?? 0
        return bits & (1 << 38 | 1 << 48) != 0
    }
}

private func expectedFleet() throws -> [ExpectedReceiver] {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return try fleetProfiles.enumerated().map { index, profile in
        let data = try Data(contentsOf: repository.appendingPathComponent("profiles/\(profile).json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        guard let name = object?["displayName"] as? String, let model = object?["model"] as? String else {
            throw NamespaceError("profiles/\(profile).json has no displayName or model")
        }
        return ExpectedReceiver(
            profile: profile, name: name, model: model, port: firstPort + UInt16(index), airplay: object?["airplay"] as? [String: Any])
    }
}

/// Starts `airlabd` with the fleet inside the namespace, listening on every address there (the veth's
/// among them), advertising over mDNS, with its reports in the scratch folder.
private func startDaemon(in namespace: MDNSNamespace) async throws -> DaemonProcess {
    let state = namespace.scratch.url.appendingPathComponent("state", isDirectory: true)
    return try await DaemonProcess.start(
        fleetProfiles.flatMap { ["--profile", $0] }
            + ["--address", "0.0.0.0", "--port", String(firstPort), "--state-dir", state.path],
        local: false, prefix: namespace.commandPrefix, in: namespace.scratch.url)
}

/// Polls the daemon's log (bounded: 10 s) until `text` has appeared `count` times.
private func waitForLog(_ daemon: DaemonProcess, _ text: String, count: Int = 1) async throws -> Bool {
    try await eventually(tries: 200) { daemon.stderr.components(separatedBy: text).count - 1 >= count ? true : nil } ?? false
}

/// The part of `GET /server-info` the TXT record repeats.
private struct ServerInfo {
    var name: String
    var deviceID: String
    var model: String
    var features: UInt64
    var sourceVersion: String
}

/// `GET /server-info` from inside the namespace at the veth's address, where a sender on the link would
/// reach the receiver.
private func serverInfo(_ namespace: MDNSNamespace, port: UInt16) async throws -> ServerInfo {
    let url = "http://\(MDNSNamespace.address):\(port)/server-info"
    let result = try await namespace.run(["curl", "--silent", "--show-error", "--fail", "--max-time", "5", url])
    guard result.status == 0 else { throw NamespaceError("curl \(url) failed (\(result.status)): \(result.stderr)") }
    let plist = try PropertyListSerialization.propertyList(from: Data(result.stdout.utf8), format: nil) as? [String: Any]
    guard let plist, let name = plist["name"] as? String, let deviceID = plist["deviceid"] as? String,
          let model = plist["model"] as? String, let features = ((plist["features"] as? NSNumber)?.int64Value).map({ UInt64(bitPattern: $0) }),
          let sourceVersion = plist["srcvers"] as? String
    else {
        throw NamespaceError("\(url) answered an incomplete property list:\n\(result.stdout)")
    }
    return ServerInfo(name: name, deviceID: deviceID, model: model, features: features, sourceVersion: sourceVersion)
}

/// Six colon-separated pairs of uppercase hexadecimal digits, as a MAC address is written.
private func isMACLike(_ text: String) -> Bool {
    let pairs = text.split(separator: ":", omittingEmptySubsequences: false)
    return pairs.count == 6 && pairs.allSatisfy { pair in
        pair.count == 2 && pair.allSatisfy { $0.isHexDigit && !$0.isLowercase }
    }
}

/// Checks that `daemon` announced the fleet, and that `seen` lists each receiver (under `renamed[name]`
/// where avahi gave it another name) at the veth's address and its port, with a TXT record that says what
/// the profile and the receiver's own /server-info say. Returns the deviceids by receiver name.
private func checkAdvertised(
    _ seen: [BrowsedService], by daemon: DaemonProcess, in namespace: MDNSNamespace, renamed: [String: String] = [:]
) async throws -> [String: String] {
    let expected = try expectedFleet()
    #expect(daemon.receivers.map(\.name) == expected.map(\.name))
    #expect(daemon.receivers.map(\.profile) == expected.map(\.profile))
    #expect(daemon.receivers.map(\.port) == expected.map(\.port))
    var deviceIDs: [String: String] = [:]
    for receiver in expected {
        let publishedName = renamed[receiver.name] ?? receiver.name
        guard let service = seen.first(where: { $0.name == publishedName }) else {
            Issue.record("\"\(publishedName)\" is not among the browsed services \(seen.map(\.name))")
            continue
        }
        let info = try await serverInfo(namespace, port: receiver.port)
        #expect(service.port == receiver.port)
        #expect(service.address == MDNSNamespace.address)
        #expect(service.interface == MDNSNamespace.link)
        // Each profile's TXT record is its device's: the AirPlay 2 classes add the pairing keys and versions.
        let legacyKeys: Set<String> = ["deviceid", "features", "flags", "model", "srcvers", "vv", "airlab.profile"]
        if receiver.isAirPlay2 {
            #expect(Set(service.txt.keys).subtracting(["pk"]) == legacyKeys.union(["acl", "pi", "protovers", "osvers"]).subtracting(
                receiver.airplay?["osVersion"] == nil ? ["osvers"] : []))
            #expect(service.txt["protovers"] == receiver.airplay?["protocolVersion"] as? String)
            #expect(service.txt["pi"]?.count == 36 && service.txt["acl"] == "0")
        } else {
            #expect(Set(service.txt.keys) == legacyKeys)
        }
        let deviceID = service.txt["deviceid"] ?? ""
        #expect(isMACLike(deviceID), "deviceid \(deviceID) of \(publishedName) is not MAC-like")
        #expect(deviceID == info.deviceID)
        #expect(service.txt["features"] == (receiver.airplay?["features"] as? String ?? "0x211"))
        #expect(info.features == (receiver.isAirPlay2 ? 0xBC15_5FDE_4A7F_DFD5 : 0x211))
        #expect(service.txt["flags"] == (receiver.airplay?["statusFlags"] as? String ?? "0x4"))
        #expect(service.txt["srcvers"] == (receiver.airplay?["sourceVersion"] as? String ?? "220.68"))
        #expect(service.txt["model"] == receiver.model)
        #expect(info.model == receiver.model)
        #expect(service.txt["srcvers"] == info.sourceVersion)
        #expect(service.txt["vv"] == "2")
        #expect(service.txt["airlab.profile"] == receiver.profile)
        // The friendly name stays the configured one; only the mDNS instance name moves on a collision.
        #expect(info.name == receiver.name)
        deviceIDs[receiver.name] = deviceID
    }
    #expect(Set(deviceIDs.values).count == expected.count, "deviceids are not distinct: \(deviceIDs)")
    return deviceIDs
}

/// The published names the fleet's receivers should have, with `renamed` applied.
private func fleetNames(renamed: [String: String] = [:]) throws -> Set<String> {
    Set(try expectedFleet().map { renamed[$0.name] ?? $0.name })
}

extension MDNSTests {
    /// The real daemon inside the namespace, as an operator runs it: `airlabd --profile … --profile …`.
    ///
    /// Nested in `MDNSTests` so that it runs serialized with the other namespace tests: only one
    /// avahi-daemon at a time can own org.freedesktop.Avahi on the shared system bus.
    @Suite(
        "airlabd inside a network namespace of its own",
        .enabled(if: MDNSNamespace.unavailableReason == nil, Comment(rawValue: MDNSNamespace.unavailableReason ?? "")))
    struct AirlabdFleet {
        @Test("airlabd publishes its fleet of three with each receiver's TXT record, withdraws it on SIGTERM, and keeps its deviceids across a restart")
        func fleetIsPublishedAndWithdrawn() async throws {
            try await MDNSNamespace.with { namespace in
                try await namespace.startAvahi()
                let daemon = try await startDaemon(in: namespace)
                let names = try fleetNames()
                let seen = try await waitForBrowse(namespace) { Set($0.map(\.name)) == names }
                #expect(Set(seen.map(\.name)) == names)
                let deviceIDs = try await checkAdvertised(seen, by: daemon, in: namespace)
                let published = try expectedFleet().map { "\"\($0.name)\"" }.joined(separator: ", ")
                #expect(try await waitForLog(daemon, "airlabd: mDNS: published \(published) as _airplay._tcp"))

                #expect(await daemon.stop() == 0)
                let afterStop = try await waitForBrowse(namespace) { $0.isEmpty }
                #expect(afterStop.isEmpty)

                // The same profiles on the same machine are the same receivers to a sender that paired with them.
                let restarted = try await startDaemon(in: namespace)
                let seenAgain = try await waitForBrowse(namespace) { Set($0.map(\.name)) == names }
                #expect(try await checkAdvertised(seenAgain, by: restarted, in: namespace) == deviceIDs)
                #expect(await restarted.stop() == 0)
            }
        }

        @Test("airlabd --profile smart-tv-low*3 publishes three replicas under their numbered names, with distinct deviceids kept across a restart")
        func replicasArePublished() async throws {
            try await MDNSNamespace.with { namespace in
                try await namespace.startAvahi()
                let profile = try expectedFleet()[1]
                #expect(profile.profile == "smart-tv-low")
                let state = namespace.scratch.url.appendingPathComponent("state", isDirectory: true)
                let arguments = ["--profile", "smart-tv-low*3", "--address", "0.0.0.0", "--port", String(firstPort), "--state-dir", state.path]
                let names = (1...3).map { "\(profile.name) #\($0)" }

                /// The replicas as browsed: each at its port, with the TXT record its /server-info agrees with; their deviceids.
                func browsedReplicas(of daemon: DaemonProcess) async throws -> [String] {
                    #expect(daemon.receivers.map(\.name) == names)
                    #expect(daemon.receivers.map(\.port) == (0..<3).map { firstPort + UInt16($0) })
                    let seen = try await waitForBrowse(namespace) { Set($0.map(\.name)) == Set(names) }
                    #expect(Set(seen.map(\.name)) == Set(names))
                    var deviceIDs: [String] = []
                    for (index, name) in names.enumerated() {
                        let service = try #require(seen.first { $0.name == name }, "\(name) is not among \(seen.map(\.name))")
                        let port = firstPort + UInt16(index)
                        #expect(service.port == port)
                        #expect(service.txt["airlab.profile"] == "smart-tv-low")
                        #expect(service.txt["model"] == profile.model)
                        let info = try await serverInfo(namespace, port: port)
                        #expect(info.name == name)
                        #expect(service.txt["deviceid"] == info.deviceID && isMACLike(info.deviceID))
                        deviceIDs.append(info.deviceID)
                    }
                    #expect(Set(deviceIDs).count == 3, "deviceids are not distinct: \(deviceIDs)")
                    return deviceIDs
                }

                let daemon = try await DaemonProcess.start(arguments, local: false, prefix: namespace.commandPrefix, in: namespace.scratch.url)
                let deviceIDs = try await browsedReplicas(of: daemon)
                let folders = try FileManager.default.contentsOfDirectory(atPath: state.path).sorted()
                #expect(folders == ["smart-tv-low-1", "smart-tv-low-2", "smart-tv-low-3"])
                #expect(await daemon.stop() == 0)
                let afterStop = try await waitForBrowse(namespace) { $0.isEmpty }
                #expect(afterStop.isEmpty)

                let restarted = try await DaemonProcess.start(arguments, local: false, prefix: namespace.commandPrefix, in: namespace.scratch.url)
                #expect(try await browsedReplicas(of: restarted) == deviceIDs)
                #expect(await restarted.stop() == 0)
            }
        }

        @Test("airlabd keeps serving while avahi-daemon is killed, and publishes its fleet again when avahi-daemon restarts")
        func fleetSurvivesAvahiRestart() async throws {
            try await MDNSNamespace.with { namespace in
                try await namespace.startAvahi()
                let daemon = try await startDaemon(in: namespace)
                let names = try fleetNames()
                let before = try await waitForBrowse(namespace) { Set($0.map(\.name)) == names }
                let deviceIDs = try await checkAdvertised(before, by: daemon, in: namespace)
                #expect(try await waitForLog(daemon, "airlabd: mDNS: published"))

                try await namespace.killAvahi()
                #expect(try await waitForLog(daemon, "airlabd: mDNS: no avahi-daemon is running"))
                // Without avahi the receivers still answer: mDNS is optional (docs/daemon.md).
                for receiver in daemon.receivers {
                    #expect(try await serverInfo(namespace, port: receiver.port).deviceID == deviceIDs[receiver.name])
                }

                try await namespace.startAvahi()
                let after = try await waitForBrowse(namespace) { Set($0.map(\.name)) == names }
                #expect(Set(after.map(\.name)) == names)
                #expect(try await checkAdvertised(after, by: daemon, in: namespace) == deviceIDs)
                #expect(try await waitForLog(daemon, "airlabd: mDNS: published", count: 2))
                #expect(await daemon.stop() == 0)
            }
        }

        @Test("a receiver whose name another client holds is published under avahi's alternative name and still answers")
        func collisionTakesAlternativeName() async throws {
            try await MDNSNamespace.with { namespace in
                try await namespace.startAvahi()
                let taken = try expectedFleet()[1]
                try await namespace.holdName(taken.name, port: 7100)
                let daemon = try await startDaemon(in: namespace)
                let renamed = [taken.name: "\(taken.name) #2"]
                let names = try fleetNames(renamed: renamed).union([taken.name])
                let seen = try await waitForBrowse(namespace) { Set($0.map(\.name)) == names }
                #expect(Set(seen.map(\.name)) == names)
                _ = try await checkAdvertised(seen, by: daemon, in: namespace, renamed: renamed)
                // The holder keeps its name, port and record.
                let holder = seen.first { $0.name == taken.name }
                #expect(holder?.port == 7100)
                #expect(holder?.txt == ["deviceid": "02:00:00:00:00:99"])
                #expect(try await waitForLog(daemon, "\"\(taken.name) #2\""))

                #expect(await daemon.stop() == 0)
                let afterStop = try await waitForBrowse(namespace) { $0.map(\.name) == [taken.name] }
                #expect(afterStop.map(\.name) == [taken.name])
            }
        }

        @Test("airlabd started with no avahi-daemon serves, says it waits for one, and publishes its fleet once it starts")
        func waitsForAbsentAvahi() async throws {
            try await MDNSNamespace.with { namespace in
                let daemon = try await startDaemon(in: namespace)
                #expect(try await waitForLog(
                    daemon, "airlabd: mDNS: no avahi-daemon is running; the receivers will be published when one appears"))
                #expect(!daemon.stderr.contains("mDNS: published"))
                for receiver in daemon.receivers {
                    #expect(try await serverInfo(namespace, port: receiver.port).name == receiver.name)
                }

                try await namespace.startAvahi()
                let names = try fleetNames()
                let seen = try await waitForBrowse(namespace) { Set($0.map(\.name)) == names }
                #expect(Set(seen.map(\.name)) == names)
                _ = try await checkAdvertised(seen, by: daemon, in: namespace)
                #expect(try await waitForLog(daemon, "airlabd: mDNS: published"))
                #expect(await daemon.stop() == 0)
            }
        }
    }
}
