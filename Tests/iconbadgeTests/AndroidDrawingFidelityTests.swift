import BadgeCore
import BadgeJobs
import BadgeRender
import Foundation
import TestSupport
import Testing

/// The native drawing of Android layers (`AndroidDrawingPainter`, what `android` and
/// `preview` use) against librsvg's drawing of the same drawing written as SVG
/// (`AndroidDrawing.svg`, what they used before), on every adaptive icon layer of
/// the real apps in `Fixtures/android`, at xxxhdpi (432 px). The figures are in
/// docs/manual/android.md.
@Suite struct AndroidDrawingFidelityTests {
    /// One layer's comparison: the largest difference of a premultiplied channel
    /// (0 to 255) and the pixels differing by more than 1 in any channel.
    struct Row: CustomStringConvertible {
        var name: String
        var largest: Int
        var over: Int
        var description: String { "| \(name) | \(largest) | \(over) |" }
    }

    /// Whether iconbadge draws an SVG icon here: not when librsvg (Debian's librsvg2-2,
    /// which `make deps` installs) or iconbadge-loader is missing, which is exit 69.
    static let librsvgDraws: Bool = {
        let folder = Paths.scratch("android-fidelity-probe")
        let svg = folder + "/probe.svg"
        let svgText =
            #"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8">"#
            + #"<rect width="8" height="8"/></svg>"#
        guard (try? Data(svgText.utf8).write(to: URL(fileURLWithPath: svg))) != nil,
            let run = try? runIconbadge([svg, "--value", "0", "-o", folder + "/probe.png"])
        else { return false }
        return run.status != 69
    }()

    /// The layers of every adaptive icon of `res`, each drawn both ways; nil when
    /// librsvg is not installed.
    static func compare(res: String, label: String, side: Int = 432) throws -> [Row]? {
        let fm = FileManager.default
        var rows: [Row] = []
        let scratch = Paths.scratch("android-fidelity")
        let table = try AndroidResourceTable(folder: res, limits: ImageLimits())
        for folder in try fm.contentsOfDirectory(atPath: res).sorted() where folder.contains("anydpi") {
            for file in try fm.contentsOfDirectory(atPath: res + "/" + folder).sorted() where file.hasSuffix(".xml") {
                let path = res + "/" + folder + "/" + file
                let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
                guard let root = try? XMLScanner.parse(bytes), root.name == "adaptive-icon" else { continue }
                for layer in ["background", "foreground", "monochrome"] {
                    guard let element = root.child(layer) else { continue }
                    let drawing: AndroidDrawing
                    do throws(AndroidDrawableProblem) {
                        drawing = try AndroidDrawableSVG.layerDrawing(
                            element, of: bytes, path: path, width: 108, height: 108, density: Double(side) / 108,
                            lookup: table.lookup, limits: ImageLimits())
                    } catch {
                        print("fidelity: \(label) \(folder)/\(file) \(layer): \(error.description)")
                        continue
                    }
                    let stem = "\(label)-\(folder)-\(file)-\(layer)"
                    let png = try AndroidDrawingPainter.png(
                        drawing, width: side, height: side, name: layer, limits: ImageLimits())
                    try Data(png).write(to: URL(fileURLWithPath: scratch + "/\(stem)-native.png"))
                    let native = try ImageFile.pixels(of: png, path: layer)
                    let svg = scratch + "/\(stem).svg"
                    try Data(try drawing.svg(maxBytes: ImageLimits().maxSVGBytes, path: path)).write(
                        to: URL(fileURLWithPath: svg))
                    let drawn = scratch + "/\(stem).png"
                    let render = try runIconbadge([svg, "--size", "\(side)x\(side)", "--value", "0", "-o", drawn])
                    if render.status == 69 { return nil }
                    #expect(render.status == 0, "\(render.stderr)")
                    let librsvg = try ImageFile.pixels(at: drawn)
                    rows.append(difference(native, librsvg, name: "\(label) \(folder)/\(file) \(layer)"))
                }
            }
        }
        return rows
    }

    /// Compares premultiplied RGBA (the colour under little alpha matters little).
    static func difference(_ a: PixelBuffer, _ b: PixelBuffer, name: String) -> Row {
        var largest = 0
        var over = 0
        for index in stride(from: 0, to: min(a.bytes.count, b.bytes.count), by: 4) {
            var worst = 0
            let (alphaA, alphaB) = (Int(a.bytes[index + 3]), Int(b.bytes[index + 3]))
            worst = abs(alphaA - alphaB)
            for channel in 0..<3 {
                let x = (Int(a.bytes[index + channel]) * alphaA + 127) / 255
                let y = (Int(b.bytes[index + channel]) * alphaB + 127) / 255
                worst = max(worst, abs(x - y))
            }
            largest = max(largest, worst)
            if worst > 1 { over += 1 }
        }
        return Row(name: name, largest: largest, over: over)
    }

    /// Every layer of the fixture apps: the drawings agree but at the edges of
    /// shapes (antialiasing) and where librsvg differs from Android (see the
    /// manual's table).
    @Test(
        .enabled(
            if: AndroidDrawingFidelityTests.librsvgDraws,
            "iconbadge cannot draw SVG here: librsvg (Debian: librsvg2-2; make deps installs it) or iconbadge-loader is missing"
        ))
    func nativeDrawingMatchesLibrsvg() throws {
        let apps = ["newpipe", "nextcloud-qa", "sample-app", "wikipedia"]
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: Paths.fixture("android")).filter {
                !$0.contains(".") && $0 != "reference"
            }.sorted() == apps)
        var all: [Row] = []
        for app in apps {
            let rows = try Self.compare(res: Paths.fixture("android/\(app)/res"), label: app)
            try #require(rows != nil, "\(app): an SVG render exited 69 (librsvg missing)")
            all += rows ?? []
        }
        #expect(all.count >= 10)
        for row in all {
            print("fidelity: \(row)")
            #expect(row.largest <= 8, "\(row)")
        }
    }

    /// `android` and `preview` draw VectorDrawable layers with no SVG renderer:
    /// with a librsvg and gdk-pixbuf that cannot load (empty files first on the
    /// library path), every layer of every fixture app is still drawn (filtered,
    /// and placed with `--avoid-content`, which draw the foreground, background and
    /// themed layers) and the preview sheet is made, while an SVG icon is refused
    /// with 69 in the same environment.
    @Test func androidAndPreviewNeedNoSVGRenderer() throws {
        let broken = Paths.scratch("unloadable-libraries")
        for name in ["librsvg-2.so.2", "libgdk_pixbuf-2.0.so.0"] {
            #expect(FileManager.default.createFile(atPath: broken + "/" + name, contents: Data()))
        }
        let environment = ["LD_LIBRARY_PATH": broken]
        let svg = Paths.fixture("android/reference/sample-app-foreground.svg")
        let control = try runIconbadge(
            [svg, "--value", "3", "-o", broken + "/control.png"], environment: environment)
        #expect(control.status == 69, "\(control.stderr)")
        for (name, icon) in AndroidLayerTests.apps {
            let app = try AndroidLayerTests.app(name, "android-bare")
            let run = try runIconbadge(
                [
                    "android", app + "/res", "--out", app + "/debug/res", "--value", "BETA", "--icon-filter",
                    "greyscale", "--avoid-content",
                ], environment: environment)
            #expect(run.status == 0, "\(name): \(run.stderr)")
            for layer in ["foreground", "monochrome"] {
                let drawn = try ImageFile.pixels(
                    at: app + "/debug/res/drawable-xxxhdpi/iconbadge_\(icon)_\(layer).png")
                #expect(drawn.width == 432 && drawn.height == 432)
            }
            let preview = try runIconbadge(
                ["preview", app + "/res", "-o", app + "/sheet.png"], environment: environment)
            #expect(preview.status == 0, "\(name): \(preview.stderr)")
            #expect(!preview.stderr.contains("librsvg"), "\(preview.stderr)")
        }
    }
}
