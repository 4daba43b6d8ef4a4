import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// iconbadge-loader (loader/, scripts/build-loader.sh): the program beside the binary
/// that opens librsvg and gdk-pixbuf, which iconbadge itself never loads.
@Suite struct LoaderTests {
    /// Where `make build` and `make test` put the loader: beside the binary under test.
    static let loader = Executables.loader

    static let missingLoaderHint =
        "no iconbadge-loader beside \(Paths.binary): `swift build` alone does not build it; run make build or make test (scripts/build-loader.sh .build/debug)"

    /// A soname no system has, for the loader's test variables (loader/loader.h).
    static let missingSoname = "libiconbadge-test-missing.so.0"

    @Test func theLoaderIsBesideTheBinaryAndNeedsGlibcAlone() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.loader), "\(Self.missingLoaderHint)")
        let run = try runIconbadgeWith(executable: "/usr/bin/readelf", ["-d", Self.loader])
        let needed = run.stdoutText.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            line.split(separator: "[").last?.split(separator: "]").first.map(String.init)
        }
        #expect(Set(needed).isSubset(of: ["libc.so.6", "libdl.so.2"]) && needed.contains("libc.so.6"), "\(needed)")
    }

    /// iconbadge imports no dlopen: nothing is loaded from its process.
    @Test func theBinaryImportsNoDlopen() throws {
        let run = try runIconbadgeWith(executable: "/usr/bin/nm", ["-D", "--undefined-only", Paths.binary])
        #expect(run.status == 0, "\(run.stderr)")
        let imported = run.stdoutText.split(separator: "\n").compactMap { $0.split(separator: " ").last }.map {
            String($0.split(separator: "@").first ?? "")
        }
        for name in ["dlopen", "dlsym", "dlmopen", "dlvsym"] {
            #expect(!imported.contains(name), "iconbadge imports \(name)")
        }
    }

    @Test func svgAndGIFIconsDecodeThroughTheLoader() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.loader), "\(Self.missingLoaderHint)")
        let folder = Paths.scratch("loader-decode")
        let svg = try runIconbadge([
            Paths.fixture("icons/mail-unread-symbolic.svg"), "--size", "64x64", "--value", "3", "-o",
            folder + "/svg.png",
        ])
        #expect(svg.status == 0, "\(svg.stderr)")
        #expect(try ImageFile.pixels(at: folder + "/svg.png").width == 64)
        let gif = try runIconbadge([
            Paths.fixture("formats/red-then-blue.gif"), "--dot", "-o", folder + "/gif.png",
        ])
        #expect(gif.status == 0, "\(gif.stderr)")
        // The GIF's first frame is red: its bottom-left pixel, away from the dot.
        let pixels = try ImageFile.pixels(at: folder + "/gif.png")
        let at = ((pixels.height - 1) * pixels.width) * 4
        #expect(Array(pixels.bytes[at..<at + 4]) == [255, 0, 0, 255], "\(Array(pixels.bytes[at..<at + 4]))")
    }

    /// The SVG output of an SVG icon draws it as vectors (the loader's recording,
    /// replayed): paths, no embedded image; and it looks like the PNG render.
    @Test func svgOutputOfAnSVGIconKeepsVectors() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.loader), "\(Self.missingLoaderHint)")
        let folder = Paths.scratch("loader-vectors")
        let icon = Paths.fixture("icons/mail-unread-symbolic.svg")
        for format in ["svg", "png", "pdf"] {
            let run = try runIconbadge([icon, "--size", "128x128", "--dot", "-o", "\(folder)/out.\(format)"])
            #expect(run.status == 0, "\(format): \(run.stderr)")
        }
        let svg = String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder + "/out.svg")), as: UTF8.self)
        #expect(!svg.contains("<image"), "the SVG icon was embedded as an image")
        #expect(svg.components(separatedBy: "<path").count - 1 >= 3, "too few paths:\n\(svg.prefix(2000))")
        let png = try ImageFile.pixels(at: folder + "/out.png")
        let drawn = try ImageFile.pixels(at: folder + "/out.svg")
        #expect(png.width == drawn.width && png.height == drawn.height)
        var largest = 0
        for (a, b) in zip(png.bytes, drawn.bytes) { largest = max(largest, abs(Int(a) - Int(b))) }
        // Anti-aliasing of the same paths through two rasterisers.
        #expect(largest <= 80, "the SVG output differs from the PNG by \(largest) in a channel")
        let pdf = try Data(contentsOf: URL(fileURLWithPath: folder + "/out.pdf"))
        #expect(
            pdf.starts(with: Data("%PDF-".utf8)) && !String(decoding: pdf, as: UTF8.self).contains("/Subtype /Image"))
    }

    /// librsvg missing: one line naming the package and the version, exit 69, for the
    /// raster decode and the vector outputs alike.
    @Test func missingLibrsvgIsOneLineAnd69() throws {
        let folder = Paths.scratch("loader-no-librsvg")
        for format in ["png", "svg", "pdf"] {
            let run = try runIconbadge(
                [
                    Paths.fixture("icons/mail-unread-symbolic.svg"), "--size", "64x64", "--dot", "-o",
                    "\(folder)/out.\(format)",
                ],
                environment: ["IBLOADER_TEST_LIBRSVG_SONAME": Self.missingSoname])
            #expect(run.status == 69, "\(format): \(run.status) \(run.stderr)")
            #expect(run.stderrLines.count == 1, "\(run.stderr)")
            #expect(
                run.stderr.contains("librsvg is not installed; install librsvg2-2 (librsvg 2.46 or later)"),
                "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "\(folder)/out.\(format)"))
        }
    }

    @Test func missingGdkPixbufIsOneLineAnd69() throws {
        let folder = Paths.scratch("loader-no-pixbuf")
        let run = try runIconbadge(
            [Paths.fixture("formats/red-then-blue.gif"), "--dot", "-o", folder + "/out.png"],
            environment: ["IBLOADER_TEST_GDK_PIXBUF_SONAME": Self.missingSoname])
        #expect(run.status == 69, "\(run.status) \(run.stderr)")
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("install libgdk-pixbuf-2.0-0 (gdk-pixbuf 2.42 or later)"), "\(run.stderr)")
    }

    /// A binary whose loader is not installed names the path it looked for (69), and
    /// its `--version` says so rather than failing.
    @Test func aMissingLoaderIsNamed() throws {
        let folder = Paths.scratch("loader-missing") + "/bin"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let copy = folder + "/iconbadge"
        try Executables.copy(Paths.binary, to: copy)
        let run = try runIconbadgeWith(
            executable: copy, [Paths.fixture("icons/mail-unread-symbolic.svg"), "--dot", "-o", folder + "/out.png"])
        #expect(run.status == 69, "\(run.status) \(run.stderr)")
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(
            run.stderr.contains("iconbadge-loader") && run.stderr.contains(folder + "/iconbadge-loader"),
            "\(run.stderr)")
        let version = try runIconbadgeWith(executable: copy, ["--version"])
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdoutText.contains("librsvg unknown: iconbadge-loader is missing"), "\(version.stdoutText)")
    }

    /// A loader whose execute bits were lost (a copy, an archive without modes) is
    /// named as there but not executable, with the `chmod` that fixes it, not as
    /// missing (reinstalling is not the fix); `--version` says the same.
    @Test func aLoaderThatIsNotExecutableIsNamedSo() throws {
        let folder = Paths.scratch("loader-not-executable") + "/bin"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let copy = folder + "/iconbadge"
        try Executables.copy(Paths.binary, to: copy)
        let loader = folder + "/iconbadge-loader"
        try Executables.copy(Self.loader, to: loader)
        #expect(chmod(loader, 0o644) == 0)
        let run = try runIconbadgeWith(
            executable: copy, [Paths.fixture("icons/mail-unread-symbolic.svg"), "--dot", "-o", folder + "/out.png"])
        #expect(run.status == 69, "\(run.status) \(run.stderr)")
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(
            run.stderr.contains("is at \"\(loader)\" but is not executable; make it so: chmod 755 \"\(loader)\""),
            "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.png"))
        let version = try runIconbadgeWith(executable: copy, ["--version"])
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdoutText.contains("at \(loader) is not executable"), "\(version.stdoutText)")
    }

    /// A loader that is installed but cannot run, because the system has no glibc
    /// (Alpine, distroless, `FROM scratch`: exec finds no program interpreter), is one
    /// line naming glibc and the packages, exit 69; never "No such file or directory"
    /// for a file that is there. A script whose interpreter is missing fails exec the
    /// same way (ENOENT), so it stands in for the loader here.
    @Test func aLoaderThatCannotRunHereNamesGlibc() throws {
        let folder = Paths.scratch("loader-no-glibc") + "/bin"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let copy = folder + "/iconbadge"
        try Executables.copy(Paths.binary, to: copy)
        let stand = folder + "/iconbadge-loader.source"
        try "#!/nonexistent/ld-linux-x86-64.so.2\n".write(toFile: stand, atomically: true, encoding: .utf8)
        try Executables.copy(stand, to: folder + "/iconbadge-loader")
        for icon in ["icons/mail-unread-symbolic.svg", "formats/red-then-blue.gif"] {
            let run = try runIconbadgeWith(executable: copy, [Paths.fixture(icon), "--dot", "-o", folder + "/out.png"])
            #expect(run.status == 69, "\(icon): \(run.status) \(run.stderr)")
            #expect(run.stderrLines.count == 1, "\(run.stderr)")
            #expect(
                run.stderr.contains("has no glibc; on one with glibc 2.31 or later, install librsvg2-2")
                    && run.stderr.contains("libgdk-pixbuf-2.0-0"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/out.png"))
        }
    }

    /// `--version` asks the loader which optional libraries it finds.
    @Test func versionListsTheOptionalLibraries() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.loader), "\(Self.missingLoaderHint)")
        let lines = try runIconbadge(["--version"]).stdoutText.split(separator: "\n").map(String.init)
        for name in ["librsvg", "gdk-pixbuf"] {
            let line = lines.first { $0.hasPrefix(name + " ") } ?? "no \(name) line"
            // This machine has both (make deps): a version, from the loader.
            #expect(line.range(of: #"^\S+ [0-9]+\.[0-9]+\.[0-9]+$"#, options: .regularExpression) != nil, "\(line)")
        }
        let without = try runIconbadge(
            ["--version"], environment: ["IBLOADER_TEST_LIBRSVG_SONAME": Self.missingSoname]
        ).stdoutText
        #expect(without.contains("\nlibrsvg not installed\n"), "\(without)")
    }
}
