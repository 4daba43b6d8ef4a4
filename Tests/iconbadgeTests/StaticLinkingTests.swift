import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// `make deps` links every C library into the binary (scripts/link-static-libs.sh);
/// librsvg and gdk-pixbuf are never loaded into it (iconbadge-loader opens them).
@Suite struct StaticLinkingTests {
    /// Whether `make deps` produced the static object; with LINKAGE=shared the build
    /// links the shared libraries, and `--version` must say so too.
    static let staticBuild = FileManager.default.fileExists(atPath: Paths.root + "/.build/static-libs/render-libs.o")

    static let linkedLibraries = [
        "cairo", "freetype", "harfbuzz", "fontconfig", "libpng", "fribidi", "zlib", "libdeflate", "libwebp", "lcms2",
        "libjpeg-turbo",
    ]

    @Test func versionSaysWhichLibrariesAreLinkedIn() throws {
        let lines = try runIconbadge(["--version"]).stdoutText.split(separator: "\n")
        for name in Self.linkedLibraries {
            let line = lines.first { $0.hasPrefix(name + " ") }
            #expect(line?.hasSuffix(" (static)") == Self.staticBuild, "\(line ?? "no \(name) line")")
        }
        // Opened by iconbadge-loader when an SVG or another format needs them: never linked in.
        for name in ["librsvg", "gdk-pixbuf"] {
            #expect(lines.first { $0.hasPrefix(name + " ") }?.hasSuffix(" (static)") == false, "\(name)")
        }
    }

    /// The binary under test names no C library but glibc's: every other one it needs
    /// is linked in, and librsvg and gdk-pixbuf are opened by iconbadge-loader only when
    /// an icon needs them.
    /// A debug build also names the Swift runtime's shared libraries; the release
    /// binary has them linked in too (scripts/test-install.sh checks its `ldd`).
    @Test(
        .enabled(
            if: StaticLinkingTests.staticBuild,
            "LINKAGE=shared: the binary links the C libraries as shared libraries (.build/static-libs/render-libs.o is absent)"
        ))
    func needsNoCLibraryButGlibc() throws {
        let run = try runIconbadgeWith(executable: "/usr/bin/readelf", ["-d", Paths.binary])
        #expect(run.status == 0, "\(run.stderr)")
        let needed = run.stdoutText.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            line.split(separator: "[").last?.split(separator: "]").first.map(String.init)
        }
        let swiftRuntime = needed.filter {
            $0.hasPrefix("libswift") || ["libdispatch.so", "libBlocksRuntime.so", "libstdc++.so.6"].contains($0)
        }
        // glibc's dynamic loader too: lld names it for the symbols it defines (__tls_get_addr,
        // _dl_find_object).
        let loader = needed.filter { $0.hasPrefix("ld-linux") }
        #expect(loader.count <= 1, "\(needed)")
        #expect(Set(needed).subtracting(swiftRuntime).subtracting(loader) == ["libc.so.6", "libm.so.6"], "\(needed)")
    }

    /// An SVG icon with text goes through librsvg, Pango, pangocairo and fontconfig in
    /// iconbadge-loader: as pixels for PNG, and for PDF and SVG as a Cairo script of
    /// the system's Cairo that the linked-in Cairo replays. librsvg draws text onto that
    /// script surface as paths (it keeps glyphs only on a PDF or SVG surface of its
    /// own), so the PDF has the glyphs' outlines and no font file.
    @Test func librsvgTextReachesTheLinkedInCairo() throws {
        let folder = Paths.scratch("static-linking")
        let icon = folder + "/label.svg"
        try Data(
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">
              <rect width="64" height="64" fill="#ffffff"/>
              <text x="4" y="40" font-family="DejaVu Sans" font-size="28" fill="#000000">Ab</text>
            </svg>
            """.utf8
        ).write(to: URL(fileURLWithPath: icon))
        for format in ["png", "svg", "pdf"] {
            let run = try runIconbadge([icon, "--value", "3", "-o", "\(folder)/out.\(format)"])
            #expect(run.status == 0, "\(format): \(run.stderr)")
        }
        let png = try ImageFile.pixels(at: folder + "/out.png")
        let svg = try ImageFile.pixels(at: folder + "/out.svg")
        #expect(png.width == 64 && svg.width == 64)
        // The text's dark pixels, left of the badge: present in both, in the same places.
        func dark(_ image: PixelBuffer) -> Int {
            var count = 0
            for y in 16..<44 {
                for x in 0..<36 where image.bytes[(y * image.width + x) * 4] < 96 { count += 1 }
            }
            return count
        }
        #expect(dark(png) > 100, "the PNG shows \(dark(png)) dark pixels of text")
        #expect(abs(dark(png) - dark(svg)) <= dark(png) / 20, "PNG \(dark(png)), SVG \(dark(svg))")
        let pdf = String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder + "/out.pdf")), as: UTF8.self)
        #expect(pdf.hasPrefix("%PDF-") && !pdf.contains("/Subtype /Image"), "\(pdf.prefix(400))")
    }
}
