import Foundation
import Testing
import TestSupport

private let kubectl = tool("kubectl")
private let kubernetesFolder = packageRoot.appendingPathComponent("deploy/kubernetes")

/// The manifests as `kubectl apply -k deploy/kubernetes` would send them, rendered offline by kubectl's
/// kustomize and read as JSON through Debian's python3-yaml (Swift has no YAML reader here).
private func renderedManifests() async throws -> [[String: Any]] {
    let rendered = try await runTool(try #require(kubectl), ["kustomize", kubernetesFolder.path])
    #expect(rendered.status == 0, "\(rendered.stderr)")
    let python = try #require(tool("python3"))
    let converted = try await runTool(
        python, ["-c", "import json, sys, yaml; json.dump(list(yaml.safe_load_all(sys.stdin)), sys.stdout)"], stdin: rendered.stdout)
    #expect(converted.status == 0, "python3-yaml could not read the manifests: \(converted.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(converted.stdout.utf8)) as? [[String: Any]])
}

private func object(_ manifests: [[String: Any]], kind: String) throws -> [String: Any] {
    let found = manifests.filter { $0["kind"] as? String == kind }
    #expect(found.count == 1, "\(found.count) \(kind) objects")
    return try #require(found.first)
}

/// `value` at a path of keys and indexes, for reading nested manifests without a type per field.
private func at(_ value: Any?, _ path: Any...) -> Any? {
    path.reduce(value) { value, step in
        if let key = step as? String { return (value as? [String: Any])?[key] }
        if let index = step as? Int, let array = value as? [Any], array.indices.contains(index) { return array[index] }
        return nil
    }
}

@Suite("Kubernetes manifests", .enabled(if: kubectl != nil, "kubectl is missing: the manifests cannot be rendered"))
struct KubernetesManifestTests {
    @Test("A headless Service selects the StatefulSet's pods and gives each a stable DNS name under it")
    func stableNames() async throws {
        let manifests = try await renderedManifests()
        let service = try object(manifests, kind: "Service")
        let statefulSet = try object(manifests, kind: "StatefulSet")

        #expect(at(service, "spec", "clusterIP") as? String == "None")
        #expect(at(statefulSet, "spec", "serviceName") as? String == at(service, "metadata", "name") as? String)
        let selector = try #require(at(service, "spec", "selector") as? [String: String])
        let podLabels = try #require(at(statefulSet, "spec", "template", "metadata", "labels") as? [String: String])
        #expect(!selector.isEmpty && selector.allSatisfy { podLabels[$0.key] == $0.value })
        #expect(at(statefulSet, "metadata", "namespace") as? String == "airlab")
    }

    @Test("airlabd's arguments are options airlabd --help lists; Prometheus is pointed at its --metrics-address port")
    func daemonArguments() async throws {
        let manifests = try await renderedManifests()
        let container = try #require(at(try object(manifests, kind: "StatefulSet"), "spec", "template", "spec", "containers", 0) as? [String: Any])
        let arguments = try #require(container["args"] as? [String])
        let help = try await BlockingWork.run { try CommandRunner.run("airlabd", ["--help"]) }
        let known = Set(HelpText(help.stdout).options)
        for option in HelpText.optionNames(in: arguments.joined(separator: " ")) {
            #expect(known.contains(option), "the StatefulSet runs airlabd --\(option), which airlabd --help does not list")
        }

        let metricsAddress = try #require(arguments.firstIndex(of: "--metrics-address").map { arguments[$0 + 1] })
        let metricsPort = try #require(metricsAddress.split(separator: ":").last.map(String.init))
        let annotations = try #require(at(try object(manifests, kind: "StatefulSet"), "spec", "template", "metadata", "annotations") as? [String: String])
        #expect(annotations["prometheus.io/scrape"] == "true")
        #expect(annotations["prometheus.io/port"] == metricsPort)
        #expect(annotations["prometheus.io/path"] == "/metrics")
        let ports = (container["ports"] as? [[String: Any]] ?? []).compactMap { $0["containerPort"] as? Int }.map(String.init)
        #expect(ports.contains(metricsPort))
    }

    @Test("The fleet file reaches the pod from the generated ConfigMap at the path --fleet names")
    func fleetFile() async throws {
        let manifests = try await renderedManifests()
        let configMap = try object(manifests, kind: "ConfigMap")
        let pod = try #require(at(try object(manifests, kind: "StatefulSet"), "spec", "template", "spec") as? [String: Any])
        let arguments = try #require(at(pod, "containers", 0, "args") as? [String])
        let fleetPath = try #require(arguments.firstIndex(of: "--fleet").map { arguments[$0 + 1] })

        let volumes = try #require(pod["volumes"] as? [[String: Any]])
        let fleetVolume = try #require(volumes.first { at($0, "configMap", "name") as? String == at(configMap, "metadata", "name") as? String })
        let mounts = try #require(at(pod, "containers", 0, "volumeMounts") as? [[String: Any]])
        let mount = try #require(mounts.first { $0["name"] as? String == fleetVolume["name"] as? String })
        let key = try #require((configMap["data"] as? [String: String])?.keys.first)
        #expect("\(mount["mountPath"] as? String ?? "")/\(key)" == fleetPath)

        let shipped = try Data(contentsOf: kubernetesFolder.appendingPathComponent("fleet.json"))
        #expect((configMap["data"] as? [String: String])?[key] == String(decoding: shipped, as: UTF8.self))
        #expect(try JSONSerialization.jsonObject(with: shipped) is [String: Any], "fleet.json is a JSON object")
    }

    @Test("The image runs the airlabd the package installs, from the context image-context makes")
    func containerfile() throws {
        let text = try String(contentsOf: kubernetesFolder.appendingPathComponent("Containerfile"), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
        #expect(lines.contains("ENTRYPOINT [\"/usr/bin/airlabd\"]"))
        #expect(lines.contains { $0.hasPrefix("FROM ") })
        #expect(lines.contains("COPY airlab.deb /tmp/airlab.deb"))
        #expect(lines.contains { $0.hasPrefix("COPY swift-runtime/ ") })
        #expect(!text.contains("/opt/swift") && !text.lowercased().contains("swift-6"), "no toolchain in the image")
    }
}
