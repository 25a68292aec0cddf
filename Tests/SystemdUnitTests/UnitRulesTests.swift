import Foundation
import Testing
import TestSupport

private let units = ["airlabd.service", "airlabd@.service"]

/// What every unit asks of systemd to contain a network daemon that needs no devices, no privileges
/// and no capabilities.
private let hardening: [String: String] = [
    "DynamicUser": "yes",
    "NoNewPrivileges": "yes",
    "CapabilityBoundingSet": "",
    "AmbientCapabilities": "",
    "ProtectSystem": "strict",
    "ProtectHome": "yes",
    "PrivateTmp": "yes",
    "PrivateDevices": "yes",
    "ProtectKernelTunables": "yes",
    "ProtectKernelModules": "yes",
    "ProtectKernelLogs": "yes",
    "ProtectControlGroups": "yes",
    "ProtectClock": "yes",
    "ProtectHostname": "yes",
    "RestrictSUIDSGID": "yes",
    "RestrictRealtime": "yes",
    "RestrictNamespaces": "yes",
    "LockPersonality": "yes",
    "MemoryDenyWriteExecute": "yes",
    "SystemCallArchitectures": "native",
]

@Suite("systemd unit rules")
struct UnitRulesTests {
    @Test("Runs as a simple service, restarts on failure only, and has a stop deadline", arguments: units)
    func lifecycle(_ name: String) throws {
        let unit = try UnitFile.shipped(name)

        #expect(unit.value("Type", in: "Service") == "simple")
        #expect(unit.value("Restart", in: "Service") == "on-failure")
        #expect(unit.value("TimeoutStopSec", in: "Service") != nil)
        #expect(unit.words("WantedBy", in: "Install") == ["multi-user.target"])
    }

    @Test("Starts after the network and avahi, wants the network, and never depends on avahi", arguments: units)
    func ordering(_ name: String) throws {
        let unit = try UnitFile.shipped(name)

        let after = unit.words("After", in: "Unit")
        #expect(after.contains("network-online.target"))
        #expect(after.contains("avahi-daemon.service"))
        #expect(unit.words("Wants", in: "Unit").contains("network-online.target"))
        for strong in ["Requires", "Requisite", "BindsTo", "PartOf"] {
            #expect(!unit.words(strong, in: "Unit").contains("avahi-daemon.service"), "\(strong)=")
        }
    }

    @Test("Runs hardened, as a dynamic user with no privileges, devices or capabilities", arguments: units)
    func hardened(_ name: String) throws {
        let unit = try UnitFile.shipped(name)

        for (key, expected) in hardening.sorted(by: { $0.key < $1.key }) {
            #expect(unit.value(key, in: "Service") == expected, "\(key)=")
        }
        let families = Set(unit.words("RestrictAddressFamilies", in: "Service"))
        #expect(families.isSuperset(of: ["AF_UNIX", "AF_INET", "AF_INET6"]))
        #expect(!families.contains("AF_PACKET"))
    }

    @Test("Runs /usr/local/bin/airlabd, the path make install rewrites to its PREFIX", arguments: units)
    func executable(_ name: String) throws {
        let unit = try UnitFile.shipped(name)

        #expect(unit.values("ExecStart", in: "Service").count == 1)
        #expect(unit.value("ExecStart", in: "Service")?.hasPrefix("/usr/local/bin/airlabd --") == true)
    }

    @Test("Hands the daemon the state directory systemd makes for it", arguments: zip(units, ["airlab", "airlab/%i"]))
    func stateDirectory(_ name: String, directory: String) throws {
        let unit = try UnitFile.shipped(name)

        #expect(unit.value("StateDirectory", in: "Service") == directory)
        let command = try #require(unit.value("ExecStart", in: "Service"))
        #expect(command.contains("--state-dir %S/\(directory) "))
    }

    @Test("An instance runs the fleet file named after it, with extra options from its environment file")
    func templateInstance() throws {
        let unit = try UnitFile.shipped("airlabd@.service")

        let command = try #require(unit.value("ExecStart", in: "Service"))
        #expect(command.hasPrefix("/usr/local/bin/airlabd --fleet /etc/airlab/fleet-%i.json "))
        #expect(command.hasSuffix(" $AIRLABD_ARGS"))
        #expect(unit.environment == ["AIRLABD_ARGS": ""])
        #expect(unit.values("EnvironmentFile", in: "Service") == ["-/etc/default/airlabd-%i"])
    }

    @Test("The single unit runs one profile on port 7000 unless /etc/default/airlabd says otherwise")
    func singleUnit() throws {
        let unit = try UnitFile.shipped("airlabd.service")

        let command = try #require(unit.value("ExecStart", in: "Service"))
        #expect(command.contains("--profile ${AIRLABD_PROFILE} --port ${AIRLABD_PORT} "))
        #expect(unit.environment["AIRLABD_PROFILE"] == "apple-tv-4k")
        #expect(unit.environment["AIRLABD_PORT"] == "7000")
        #expect(unit.values("EnvironmentFile", in: "Service") == ["-/etc/default/airlabd"])
    }

    @Test("The template and the single unit differ only in what names the receiver, its settings and its state")
    func unitsAgree() throws {
        let single = try UnitFile.shipped("airlabd.service")
        let template = try UnitFile.shipped("airlabd@.service")
        let differing: Set = ["Description", "ExecStart", "Environment", "EnvironmentFile", "StateDirectory"]

        func shared(_ unit: UnitFile) -> [UnitFile.Setting] {
            unit.settings.filter { !differing.contains($0.key) }
        }
        #expect(shared(single) == shared(template))
    }
}

@Suite("systemd units against the daemon")
struct UnitOptionsTests {
    @Test("Every option a unit's ExecStart gives is one airlabd --help lists", arguments: units)
    func optionsExist(_ name: String) async throws {
        let unit = try UnitFile.shipped(name)
        let help = try await BlockingWork.run { try CommandRunner.run("airlabd", ["--help"]) }
        #expect(help.status == 0)
        let known = Set(HelpText(help.stdout).options)
        #expect(known.contains("state-dir"), "the help was read: \(help.stdout)")

        let command = try #require(unit.value("ExecStart", in: "Service"))
        let given = HelpText.optionNames(in: command)
        #expect(!given.isEmpty)
        for option in given {
            #expect(known.contains(option), "\(name) runs airlabd --\(option), which airlabd --help does not list")
        }
    }
}
