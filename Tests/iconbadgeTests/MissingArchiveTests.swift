import Foundation
import TestSupport
import Testing

/// A static build (`LINKAGE=static`, the default) on a machine without one of the
/// static archives stops and names the Debian `-dev` package that has it
/// (scripts/link-static-libs.sh): it never links a binary that needs other packages.
/// The script runs from a copy of the checkout's build files in a scratch folder, so
/// that nothing under this checkout's `.build` is touched, with `STATIC_LIBDIR`
/// pointing at a folder of links to the system's archives that lacks one.
@Suite struct MissingArchiveTests {
    /// Every archive the static link needs, and the Debian package that ships it
    /// (`dpkg -S`), as the script must name them.
    static let archives: [(file: String, package: String)] = [
        ("libcairo.a", "libcairo2-dev"), ("libpixman-1.a", "libpixman-1-dev"),
        ("libfontconfig.a", "libfontconfig-dev"), ("libexpat.a", "libexpat1-dev"),
        ("libfribidi.a", "libfribidi-dev"), ("libfreetype.a", "libfreetype-dev"),
        ("libwebpmux.a", "libwebp-dev"), ("libwebp.a", "libwebp-dev"), ("libpng16.a", "libpng-dev"),
        ("libjpeg.a", "libjpeg62-turbo-dev"), ("libdeflate.a", "libdeflate-dev"),
        ("libbrotlidec.a", "libbrotli-dev"), ("libbrotlicommon.a", "libbrotli-dev"), ("libz.a", "zlib1g-dev"),
        // Cairo's script interpreter, which replays iconbadge-loader's recordings of SVG.
        ("libcairo-script-interpreter.a", "libcairo2-dev"),
    ]

    /// The system's folder of archives, as the script finds it.
    static func systemLibdir() throws -> String {
        let run = try runIconbadgeWith(executable: "/usr/bin/pkg-config", ["--variable=libdir", "cairo"])
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A scratch checkout: the Makefile and the scripts `make deps` runs, and a folder of
    /// links to every archive but `missing`.
    static func scratchCheckout(missing: String) throws -> (root: String, libdir: String) {
        let root = Paths.scratch("missing-archive")
        let files = FileManager.default
        for path in [
            "Makefile", "scripts/install-deps.sh", "scripts/link-static-libs.sh", "linker/libiconbadge-render.so",
        ] {
            try files.createDirectory(
                atPath: root + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try files.copyItem(atPath: Paths.root + "/" + path, toPath: root + "/" + path)
        }
        let libdir = root + "/libs"
        try files.createDirectory(atPath: libdir, withIntermediateDirectories: true)
        let system = try systemLibdir()
        for archive in archives where archive.file != missing {
            #expect(files.fileExists(atPath: system + "/" + archive.file), "\(system)/\(archive.file)")
            try files.createSymbolicLink(
                atPath: libdir + "/" + archive.file, withDestinationPath: system + "/" + archive.file)
        }
        return (root, libdir)
    }

    /// The script's own list of archives is this test's: one more there would go
    /// untested, one fewer here would test nothing.
    @Test func theScriptNeedsExactlyTheseArchives() throws {
        let script = try String(contentsOfFile: Paths.root + "/scripts/link-static-libs.sh", encoding: .utf8)
        let lists = ["EXPORTED=\"", "HIDDEN=\""].map { start -> [String] in
            guard let from = script.range(of: start) else { return [] }
            let rest = script[from.upperBound...]
            return rest[..<(rest.firstIndex(of: "\"") ?? rest.endIndex)].split(whereSeparator: \.isWhitespace).map {
                String($0)
            }
        }
        let named = (lists[0] + lists[1]).map { entry -> String in
            let parts = entry.split(separator: ":")
            return "lib\(parts[0]).a:\(parts[1])"
        }
        #expect(named.count == 15)
        #expect(Set(named) == Set(Self.archives.map { "\($0.file):\($0.package)" }))
    }

    /// For each archive in turn: status 69, a message naming the archive and the package
    /// to install, and no linker script written (the build cannot link either way).
    @Test(arguments: archives.map(\.file)) func eachMissingArchiveStopsTheScript(missing: String) throws {
        let package = Self.archives.first { $0.file == missing }!.package
        let (root, libdir) = try Self.scratchCheckout(missing: missing)
        let run = try runIconbadgeWith(
            executable: "/bin/sh", [root + "/scripts/link-static-libs.sh"],
            environment: ["LINKAGE": "static", "STATIC_LIBDIR": libdir])
        #expect(run.status == 69, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        #expect(
            lines.first == "make deps: no \(libdir)/\(missing) for a static link; install \(package)", "\(run.stderr)")
        #expect(lines.count == 2 && lines.last?.contains("LINKAGE=shared") == true, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/.build/static-libs/libiconbadge-render.so"))
    }

    /// Every archive there but libstdc++.a (which `make deps` links into
    /// .build/static-cxx, absent from the scratch checkout): the Swift runtime would
    /// need libstdc++.so.6, so the script stops and names the package.
    @Test func missingLibstdcxxStopsTheScript() throws {
        let (root, libdir) = try Self.scratchCheckout(missing: "")
        let run = try runIconbadgeWith(
            executable: "/bin/sh", [root + "/scripts/link-static-libs.sh"],
            environment: ["LINKAGE": "static", "STATIC_LIBDIR": libdir])
        #expect(run.status == 69, "\(run.stderr)")
        let first = run.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("make deps: no libstdc++.a for a static link"), "\(run.stderr)")
        #expect(first.range(of: #"; install libstdc\+\+-[0-9]+-dev$"#, options: .regularExpression) != nil, "\(first)")
        #expect(!FileManager.default.fileExists(atPath: root + "/.build/static-libs/libiconbadge-render.so"))
    }

    /// `make release` stops at `make deps` with the script's message: the compiler never
    /// runs (SWIFT is an echo that would print its arguments).
    @Test func makeReleaseStopsAtTheMissingArchive() throws {
        let (root, libdir) = try Self.scratchCheckout(missing: "libpng16.a")
        let run = try runIconbadgeWith(
            executable: "/usr/bin/make", ["-C", root, "release", "SWIFT=echo swift"],
            environment: ["LINKAGE": "static", "STATIC_LIBDIR": libdir, "MAKEFLAGS": "", "MAKELEVEL": ""])
        #expect(run.status == 2, "\(run.stdoutText)\n\(run.stderr)")
        #expect(
            run.stderr.contains("make deps: no \(libdir)/libpng16.a for a static link; install libpng-dev"),
            "\(run.stderr)")
        #expect(!run.stdoutText.contains("swift build"), "\(run.stdoutText)")
        #expect(!FileManager.default.fileExists(atPath: root + "/.build/static-libs/libiconbadge-render.so"))
    }
}
