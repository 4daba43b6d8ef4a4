import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// `make deps` links Cairo, fontconfig and FriBidi into the binary
/// (scripts/link-static-libs.sh) and exports them, so that librsvg, opened later for
/// SVG icons, draws with the same Cairo instead of its own libcairo.so.2.
@Suite struct StaticLinkingTests {
    /// Whether `make deps` produced the static object; without it the build links the
    /// shared libraries, and `--version` must say so too.
    static let staticBuild = FileManager.default.fileExists(
        atPath: Paths.root + "/.build/static-libs/libiconbadge-render.so")

    @Test func versionSaysWhichLibrariesAreLinkedIn() throws {
        let lines = try runIconbadge(["--version"]).stdoutText.split(separator: "\n")
        for name in ["cairo", "fontconfig", "fribidi"] {
            let line = lines.first { $0.hasPrefix(name + " ") }
            #expect(line?.hasSuffix(" (static)") == Self.staticBuild, "\(line ?? "no \(name) line")")
        }
        // HarfBuzz is compiled from Debian's source when it can be fetched (harfbuzz.o).
        let harfbuzz = lines.first { $0.hasPrefix("harfbuzz ") }
        let harfbuzzStatic =
            Self.staticBuild && FileManager.default.fileExists(atPath: Paths.root + "/.build/static-libs/harfbuzz.o")
        #expect(harfbuzz?.hasSuffix(" (static)") == harfbuzzStatic, "\(harfbuzz ?? "no harfbuzz line")")
        // FreeType and libpng are always the shared libraries.
        for name in ["freetype", "libpng"] {
            #expect(lines.first { $0.hasPrefix(name + " ") }?.hasSuffix(" (static)") == false, "\(name)")
        }
    }

    /// An SVG icon with text goes through librsvg, Pango, pangocairo and fontconfig:
    /// in the isolated decoder for PNG, and in the isolated vector render for PDF and
    /// SVG, where librsvg draws on our cairo_t. Had librsvg bound to its own Cairo, the vector
    /// runs would crash or draw nothing.
    @Test func librsvgDrawsTextWithTheLinkedInCairo() throws {
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
        #expect(pdf.hasPrefix("%PDF-") && pdf.contains("/FontFile"))
    }
}
