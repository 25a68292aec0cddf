import Foundation
import Testing
import TestSupport

private let dpkgDeb = tool("dpkg-deb")

/// Builds the package from the binaries under test, the way `make deb` does after its release build:
/// `scripts/stage-install` under /usr, then `scripts/build-deb` (uncompressed: it is unpacked at once).
private func buildPackage(in scratch: Scratch) async throws -> URL {
    let stage = scratch.url.appendingPathComponent("stage").path
    let products = CommandRunner.productsDirectory.path
    let staged = try await runTool(
        packageRoot.appendingPathComponent("scripts/stage-install").path,
        ["--products", products, "--destdir", stage, "--prefix", "/usr", "--unit-dir", "/lib/systemd/system"])
    #expect(staged.status == 0, "\(staged.stderr)")
    let built = try await runTool(
        packageRoot.appendingPathComponent("scripts/build-deb").path,
        ["--root", stage, "--out", scratch.url.path, "--compression", "none"])
    #expect(built.status == 0, "\(built.stderr)")
    return URL(fileURLWithPath: built.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
}

@Suite(
    "The Debian package",
    .enabled(if: dpkgDeb != nil && tool("dpkg-shlibdeps") != nil, "dpkg-deb or dpkg-shlibdeps is missing: install dpkg-dev (scripts/install-dependencies does)"))
struct DebianPackageTests {
    /// One test, one build: building takes most of its time (dpkg-shlibdeps reads every binary), and
    /// the checks only read the package.
    @Test(
        "make deb's steps build airlab_VERSION_ARCH.deb with every shipped file and honest Depends, which unpacked into a scratch root runs airlabd --help and airlab --version"
    )
    func package() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let package = try await buildPackage(in: scratch)
        try await installsAndRuns(package, in: scratch)
        try await contents(package, in: scratch)
        try await control(package)
        try await imageContext(package, in: scratch)
    }

    /// deploy/kubernetes/image-context puts the package and the libraries no Debian package provides
    /// (the Swift runtime, while the binaries load it from the toolchain) into the image's context.
    private func imageContext(_ package: URL, in scratch: Scratch) async throws {
        let context = scratch.url.appendingPathComponent("context")
        let made = try await runTool(packageRoot.appendingPathComponent("deploy/kubernetes/image-context").path, [package.path, context.path])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(FileManager.default.fileExists(atPath: context.appendingPathComponent("airlab.deb").path))
        let libraries = try FileManager.default.contentsOfDirectory(atPath: context.appendingPathComponent("swift-runtime").path)
        let linked = try await runTool(try #require(tool("ldd")), [CommandRunner.productsDirectory.appendingPathComponent("airlabd").path])
        #expect(linked.stdout.contains("libswiftCore.so") == libraries.contains("libswiftCore.so"), "\(libraries)")
        #expect(!libraries.contains { $0.hasPrefix("libav") || $0.hasPrefix("libc.so") }, "Debian's libraries come from apt: \(libraries)")
    }

    private func installsAndRuns(_ package: URL, in scratch: Scratch) async throws {
        let version = try await BlockingWork.airlab(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let architecture = try await runTool(try #require(tool("dpkg")), ["--print-architecture"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(package.lastPathComponent == "airlab_\(version.dropFirst("airlab ".count))_\(architecture).deb")

        // Installed into a scratch root, not onto the machine, so that nothing is left behind whatever fails.
        let root = scratch.url.appendingPathComponent("root")
        let unpacked = try await runTool(try #require(dpkgDeb), ["-x", package.path, root.path])
        #expect(unpacked.status == 0, "\(unpacked.stderr)")
        let daemon = try await BlockingWork.run {
            try CommandRunner.run(executableURL: root.appendingPathComponent("usr/bin/airlabd"), ["--help"])
        }
        #expect(daemon.status == 0, "\(daemon.stderr)")
        #expect(daemon.stdout.hasPrefix("airlabd: "))
        #expect(daemon.stdout.contains("apple-tv-4k"), "the profiles are listed")
        let cli = try await BlockingWork.run { try CommandRunner.run(executableURL: root.appendingPathComponent("usr/bin/airlab"), ["--version"]) }
        #expect(cli.status == 0, "\(cli.stderr)")
        #expect(cli.stdout == version + "\n")
        try FileManager.default.removeItem(at: root)
        #expect(!FileManager.default.fileExists(atPath: root.path))
    }

    /// The binaries, profiles and schema, both units, manual pages and completions, in their Debian places.
    private func contents(_ package: URL, in scratch: Scratch) async throws {
        let listing = try await runTool(try #require(dpkgDeb), ["-c", package.path])
        #expect(listing.status == 0, "\(listing.stderr)")
        let paths = Set(listing.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        for path in [
            "./usr/bin/airlab", "./usr/bin/airlabd", "./usr/bin/airlab_Profiles.resources/Shipped/apple-tv-4k.json",
            "./usr/bin/airlab_Profiles.resources/Shipped/profile.schema.json",
            "./lib/systemd/system/airlabd.service", "./lib/systemd/system/airlabd@.service",
            "./usr/share/man/man1/airlab.1.gz", "./usr/share/man/man1/airlabd.1.gz",
            "./usr/share/bash-completion/completions/airlab", "./usr/share/zsh/vendor-completions/_airlabd",
            "./usr/share/fish/vendor_completions.d/airlab.fish",
        ] {
            #expect(paths.contains(path), "\(path) is not in the package")
        }
        #expect(!listing.stdout.contains("/usr/local"))

        let root = scratch.url.appendingPathComponent("units")
        #expect(try await runTool(try #require(dpkgDeb), ["-x", package.path, root.path]).status == 0)
        for unit in ["airlabd.service", "airlabd@.service"] {
            let text = try String(contentsOf: root.appendingPathComponent("lib/systemd/system/\(unit)"), encoding: .utf8)
            #expect(text.contains("\nExecStart=/usr/bin/airlabd --"), "\(unit) runs the installed binary")
        }
    }

    /// Depends names the Debian packages of the libraries the binaries load, and the control file no toolchain path.
    private func control(_ package: URL) async throws {
        let depends = try await runTool(try #require(dpkgDeb), ["-f", package.path, "Depends"]).stdout
        for library in ["libavformat", "libavahi-client", "libmicrohttpd", "libcurl", "libssl", "libc6"] {
            #expect(depends.contains(library), "Depends: \(depends)")
        }
        let control = try await runTool(try #require(dpkgDeb), ["-I", package.path, "control"]).stdout
        #expect(!control.contains("/opt/") && !control.contains("swift-"), "\(control)")
        #expect(control.contains("Swift runtime"), "the Description says what the binaries need")
    }
}
