import BadgeCore
import BadgeJobs
import BadgeRender
import Foundation
import TestSupport
import Testing

/// The work a hostile `res/` folder or `.icon` bundle can cause is bounded (issue 44):
/// attributes checked by hash, one resource table a run (each folder listed once,
/// each XML file parsed once, colour state lists resolved once, names and bytes
/// bounded with 65 past the bound), `.icon` layers bounded in number, drawn size
/// and area, and an `icon.json` iconbadge writes always reads back. Each input is
/// made small here; each test asserts a count of work or a limit the code enforces,
/// never a time.
@Suite struct ResourceBoundsTests {
    static let android = "xmlns:android=\"http://schemas.android.com/apk/res/android\""

    /// Writes `files` (path below `root`: text or bytes) and returns `root`.
    @discardableResult
    static func tree(_ root: String, _ files: [String: Any]) throws -> String {
        for (path, content) in files {
            let full = root + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let data = (content as? [UInt8]).map { Data($0) } ?? Data((content as! String).utf8)
            try data.write(to: URL(fileURLWithPath: full))
        }
        return root
    }

    /// A PNG of `side` × `side` px in one colour.
    static func png(_ side: Int) throws -> [UInt8] {
        try ImageFile.pngData(of: PixelBuffer(width: side, height: side, fill: Color(red: 200, green: 40, blue: 40)))
    }

    /// An adaptive icon whose foreground is `foreground` and monochrome `monochrome`.
    static func icon(foreground: String, monochrome: String? = nil, extra: String = "") -> String {
        "<adaptive-icon \(android)\(extra)><background android:drawable=\"@color/bg\"/>"
            + "<foreground android:drawable=\"\(foreground)\"/>"
            + (monochrome.map { "<monochrome android:drawable=\"\($0)\"/>" } ?? "") + "</adaptive-icon>"
    }

    /// Converts the layer `part` of `res`'s `ic_launcher` at every density, through one table.
    static func convert(_ res: String, part: String, table: AndroidResourceTable) throws -> [[UInt8]] {
        var notes: [String] = []
        let resources = try AndroidResources(folder: res, names: ["ic_launcher"], notes: &notes)
        let icon = try #require(resources.adaptive.first)
        let element = try #require(icon.root.child(part))
        return try AndroidResources.layerDensities.map { density in
            try AndroidDrawableSVG.layer(
                element, of: icon.bytes, path: res + "/" + icon.components.joined(separator: "/"), width: 108,
                height: 108, density: density.scale, lookup: table.lookup, limits: ImageLimits())
        }
    }

    /// Issue 44 item 2: an adaptive icon with more attributes on one element than
    /// XMLScanner reads is refused in one line, and nothing is written.
    @Test func anAdaptiveIconWithTooManyAttributesIsRefused() throws {
        let scratch = Paths.scratch("bounds-attributes")
        let many = (0...XMLScanner.maxAttributes).map { " a\($0)=\"\"" }.joined()
        let res = try Self.tree(
            scratch + "/res",
            [
                "mipmap-anydpi-v26/ic_launcher.xml": Self.icon(foreground: "@drawable/fg", extra: many),
                "values/colors.xml": "<resources><color name=\"bg\">#3366cc</color></resources>",
            ])
        let run = try runIconbadge(["android", res, "--out", scratch + "/out", "--value", "3"])
        #expect(run.status == 65)
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("not readable XML: over 10000 attributes on <adaptive-icon> at byte"))
        #expect(!FileManager.default.fileExists(atPath: scratch + "/out"))
    }

    /// Issue 44 item 3: a manifest over XMLScanner's limits is named in a note and
    /// the default names are looked for; one within them gives its icon's name.
    @Test func aManifestOverTheLimitsIsNamedAndSkipped() throws {
        let scratch = Paths.scratch("bounds-manifest")
        let res = try Self.tree(
            scratch + "/res",
            ["mipmap-hdpi/ic_launcher.png": try Self.png(72), "mipmap-hdpi/app.png": try Self.png(72)])
        let over = (0..<XMLScanner.maxAttributes).map { " b\($0)=\"\"" }.joined()
        try Self.tree(
            scratch,
            [
                "AndroidManifest.xml":
                    "<manifest \(Self.android)><application\(over) android:icon=\"@mipmap/app\"/></manifest>"
            ])
        var notes: [String] = []
        let defaults = try AndroidResources(folder: res, names: [], notes: &notes)
        #expect(defaults.names == ["ic_launcher", "ic_launcher_round"])
        #expect(notes.count == 1)
        let manifest = Quoted(scratch + "/AndroidManifest.xml")
        #expect(notes.first?.hasPrefix("\(manifest) not read (over 10000 attributes on <application> at byte ") == true)
        #expect(notes.first?.hasSuffix("): its icon names are not used") == true, "\(notes)")
        let within = (0..<(XMLScanner.maxAttributes - 1)).map { " b\($0)=\"\"" }.joined()
        try Self.tree(
            scratch,
            [
                "AndroidManifest.xml":
                    "<manifest \(Self.android)><application\(within) android:icon=\"@mipmap/app\"/></manifest>"
            ])
        notes = []
        let named = try AndroidResources(folder: res, names: [], notes: &notes)
        #expect(named.names == ["app"])
        #expect(notes.isEmpty)
    }

    /// Issue 44 item 4: 200 paths filled with one colour state list, at each of five
    /// densities: each XML file is parsed once for the run, and the list's 3,000
    /// items are counted once a density (200 × 3,000 would pass the 20,000 elements
    /// a drawable may have).
    @Test func aColourStateListIsParsedOnceForEveryReference() throws {
        let scratch = Paths.scratch("bounds-color")
        let states = String(repeating: "<item android:state_pressed=\"true\" android:color=\"#00ff00\"/>", count: 3_000)
        let paths = (0..<200).map {
            "<path android:fillColor=\"@color/csl\" android:pathData=\"M\($0 % 60 + 20),\($0 / 60 * 10 + 20)h4v4h-4z\"/>"
        }.joined()
        let res = try Self.tree(
            scratch + "/res",
            [
                "mipmap-anydpi-v26/ic_launcher.xml": Self.icon(
                    foreground: "@drawable/mono", monochrome: "@drawable/mono"),
                "values/colors.xml": "<resources><color name=\"bg\">#3366cc</color></resources>",
                "color/csl.xml": "<selector \(Self.android)>\(states)<item android:color=\"#ff0000\"/></selector>",
                "drawable/mono.xml":
                    "<vector \(Self.android) android:width=\"108dp\" android:height=\"108dp\" android:viewportWidth=\"108\" android:viewportHeight=\"108\">\(paths)</vector>",
            ])
        let table = try AndroidResourceTable(folder: res, limits: ImageLimits())
        let documents = try Self.convert(res, part: "monochrome", table: table)
        #expect(documents.count == 5)
        for document in documents {
            let text = String(decoding: document, as: UTF8.self)
            #expect(text.components(separatedBy: "fill=\"#ff0000\"").count == 201)
        }
        // values/colors.xml, the icon's XML, drawable/mono.xml, color/csl.xml.
        #expect(table.documentsParsed == 4)
        // res/, values/, color/, drawable/, mipmap-anydpi-v26/.
        #expect(table.foldersListed == 5)
        // The whole command, its renders included, within the limits page's budget.
        let run = try runMeasured(["android", res, "--out", scratch + "/out", "--value", "3"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.peakKiB < 256 << 10)
    }

    /// Issue 44 item 5: a folder of many files beside a layer list of 20 bitmaps is
    /// listed once however many lookups there are; past `maxEntries` names the
    /// table refuses the folder (65) in one line.
    @Test func eachFolderIsListedOnceAndTheirSizeIsBounded() throws {
        let scratch = Paths.scratch("bounds-listing")
        var files: [String: Any] = [
            "mipmap-anydpi-v26/ic_launcher.xml": Self.icon(foreground: "@drawable/layers"),
            "values/colors.xml": "<resources><color name=\"bg\">#3366cc</color></resources>",
            "drawable/layers.xml":
                "<layer-list \(Self.android)>"
                + (0..<20).map { "<item android:drawable=\"@drawable/b\($0)\"/>" }.joined() + "</layer-list>",
        ]
        let bitmap = try Self.png(16)
        for index in 0..<20 { files["drawable-xxhdpi/b\(index).png"] = bitmap }
        for index in 0..<1_000 { files["drawable/e\(index).xml"] = "" }
        let res = try Self.tree(scratch + "/res", files)
        let table = try AndroidResourceTable(folder: res, limits: ImageLimits())
        let documents = try Self.convert(res, part: "foreground", table: table)
        #expect(
            documents.allSatisfy { String(decoding: $0, as: UTF8.self).components(separatedBy: "<image").count == 21 })
        // res/, values/, drawable/, drawable-xxhdpi/, mipmap-anydpi-v26/: 5 × 20 lookups, no more listings.
        #expect(table.foldersListed == 5)
        #expect(table.documentsParsed == 3)
        do throws(BadgeError) {
            _ = try AndroidResourceTable(folder: res, limits: ImageLimits(), maxEntries: 1_000)
            Issue.record("a folder over the bound was read")
        } catch {
            #expect(error.exitCode == .dataError)
            #expect(
                error.message
                    == "\(Quoted(res)): has over 1000 entries in it and its values, drawable, mipmap and color folders; iconbadge lists at most 1000 in a res/ folder"
            )
        }
        #expect(AndroidResourceTable.maxEntries == 100_000)
    }

    /// The XML read from one `res/` folder is bounded for the run: values files at
    /// the start (65), and files a drawable refers to when it is converted.
    @Test func theXMLReadFromAFolderIsBounded() throws {
        let scratch = Paths.scratch("bounds-bytes")
        let values = "<resources>" + String(repeating: "<color name=\"c\">#123456</color>", count: 100) + "</resources>"
        let res = try Self.tree(
            scratch + "/res",
            [
                "mipmap-anydpi-v26/ic_launcher.xml": Self.icon(foreground: "@drawable/fg"),
                "values/colors.xml": values,
                "drawable/fg.xml":
                    "<vector \(Self.android) android:width=\"108dp\" android:height=\"108dp\" android:viewportWidth=\"108\" android:viewportHeight=\"108\"><path android:fillColor=\"#fff\" android:pathData=\"M0,0h9v9z\"/></vector>",
            ])
        do throws(BadgeError) {
            _ = try AndroidResourceTable(folder: res, limits: ImageLimits(), maxXMLBytes: values.utf8.count - 1)
            Issue.record("values over the bound were read")
        } catch {
            #expect(error.exitCode == .dataError)
            #expect(
                error.message.contains(
                    "would take the XML read from \(Quoted(res)) over \(values.utf8.count - 1) bytes (0 bytes read before it;"
                ))
        }
        let table = try AndroidResourceTable(folder: res, limits: ImageLimits(), maxXMLBytes: values.utf8.count + 10)
        #expect(throws: AndroidDrawableProblem.self) { try Self.convert(res, part: "foreground", table: table) }
        #expect(AndroidResourceTable.maxXMLBytes == 16 << 20)
    }

    /// A `.icon` bundle of `count` layers showing `image` at `scale` (nil: none given).
    static func bundle(
        _ folder: String, layers count: Int, side: Int = 40, scale: String? = nil, extra: String = ""
    ) throws -> String {
        let position = scale.map { ",\"position\":{\"scale\":\($0),\"translation-in-points\":[0,0]}" } ?? ""
        let layers = Array(repeating: "{\"image-name\":\"l.png\"\(position)}", count: count).joined(separator: ",")
        return try tree(
            folder + "/A.icon",
            ["Assets/l.png": try png(side), "icon.json": "{\(extra)\"groups\":[{\"layers\":[\(layers)]}]}"])
    }

    /// Issue 44 item 6: a bundle of more layers than `maxLayers` is refused in one
    /// line, nothing written; one at the limit, every layer the same image, is drawn
    /// within 256 MiB.
    @Test func anIconBundleOfTooManyLayersIsRefused() throws {
        let scratch = Paths.scratch("bounds-layers")
        #expect(IconComposerBundle.maxLayers == 256)
        let over = try Self.bundle(scratch + "/over", layers: 257)
        let refused = try runIconbadge(["preview", over, "-o", scratch + "/over.png"])
        #expect(refused.status == 65)
        #expect(
            refused.stderrLines == [
                "iconbadge: error: \(Quoted(over + "/icon.json")): names 257 layers; iconbadge reads a bundle of at most 256 (one for each asset)"
            ])
        #expect(!FileManager.default.fileExists(atPath: scratch + "/over.png"))
        let within = try Self.bundle(scratch + "/within", layers: 256)
        let drawn = try runMeasured(["preview", within, "-o", scratch + "/within.png"])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        #expect(drawn.peakKiB < 256 << 10)
    }

    /// Issue 44 item 10: a layer whose scale draws it over `maxLayerSide` is refused
    /// in one line naming the scale and the limit (never skipped); a scale that is
    /// not a number over 0 too; one at the limit is drawn within 256 MiB; distinct
    /// layers over `maxLayerArea` together are refused.
    @Test func anIconLayersScaleIsBounded() throws {
        let scratch = Paths.scratch("bounds-scale")
        let cases: [(String, String)] = [
            (
                "128.01",
                "the layer showing \"l.png\" (64 × 64 px) at position.scale 128.01 is drawn 8193 pt wide, over the 8192 pt a layer may be on the 1024 pt canvas"
            ),
            // Past Int's range (the attack review's 1e300: this message once trapped
            // converting the drawn size to Int) and past Double's (infinity).
            (
                "1e300",
                "the layer showing \"l.png\" (64 × 64 px) at position.scale 1e+300 is drawn 6.4e+301 pt wide, over the 8192 pt a layer may be on the 1024 pt canvas"
            ),
            (
                "1e308",
                "the layer showing \"l.png\" (64 × 64 px) at position.scale 1e+308 is drawn over 1e308 pt wide, over the 8192 pt a layer may be on the 1024 pt canvas"
            ),
            ("-1", "the layer showing \"l.png\" has the position.scale -1; it must be a number over 0"),
            ("\"big\"", "the layer showing \"l.png\" has the position.scale \"big\"; it must be a number over 0"),
        ]
        for (index, (scale, reason)) in cases.enumerated() {
            let bundle = try Self.bundle(scratch + "/\(index)", layers: 1, side: 64, scale: scale)
            let run = try runIconbadge(["preview", bundle, "-o", scratch + "/\(index).png"])
            #expect(run.status == 65, "\(scale)")
            #expect(run.stderrLines == ["iconbadge: error: \(Quoted(bundle + "/icon.json")): \(reason)"])
            #expect(!FileManager.default.fileExists(atPath: scratch + "/\(index).png"))
        }
        // At the limit: 64 px at 128 is 8192 pt, 2048 px on the largest tile.
        let largest = try Self.bundle(scratch + "/largest", layers: 1, side: 64, scale: "128")
        let drawn = try runMeasured(["preview", largest, "-o", scratch + "/largest.png"])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        #expect(drawn.peakKiB < 256 << 10)
        // Two distinct scales of one image at 64 canvases each: over the area together.
        let two = try Self.tree(
            scratch + "/two/A.icon",
            [
                "Assets/l.png": try Self.png(64),
                "icon.json":
                    "{\"groups\":[{\"layers\":[{\"image-name\":\"l.png\",\"position\":{\"scale\":128}},{\"image-name\":\"l.png\",\"position\":{\"scale\":127}}]}]}",
            ])
        let area = try runIconbadge(["preview", two, "-o", scratch + "/two.png"])
        #expect(area.status == 65)
        #expect(
            area.stderrLines == [
                "iconbadge: error: \(Quoted(two + "/icon.json")): its layers cover over 64 times the 1024 pt canvas together, each image at each scale counted once (the most a preview draws)"
            ])
    }

    /// Issue 44 item 6: `appiconset --preview` on a bundle whose icon.json, written as
    /// Xcode writes it, would be over the size iconbadge reads: it is written compact,
    /// reads back, and the preview is drawn.
    @Test func aBadgedIconJSONAlwaysReadsBack() throws {
        let scratch = Paths.scratch("bounds-rewrite")
        // 150,000 numbers 16 arrays deep: 300 KB compact, megabytes indented.
        let deep =
            String(repeating: "[", count: 16)
            + Array(repeating: "0", count: 150_000).joined(separator: ",") + String(repeating: "]", count: 16)
        let bundle = try Self.bundle(scratch, layers: 1, extra: "\"x\":\(deep),")
        let run = try runIconbadge([
            "appiconset", bundle, "--value", "3", "--out", scratch + "/out", "--preview", scratch + "/sheet.png",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let written = try Data(contentsOf: URL(fileURLWithPath: scratch + "/out/A.icon/icon.json"))
        #expect(written.count <= IconComposerBundle.maxDocumentBytes)
        #expect(FileManager.default.fileExists(atPath: scratch + "/sheet.png"))
        #expect(try IconComposerBundle(path: scratch + "/out/A.icon").hasBadgeLayer)
    }

    /// The resource lookups' fuzz target replays its seeds (small forms of the cases
    /// above) without a failed invariant.
    @Test func theResourceFuzzTargetReplaysItsSeeds() throws {
        let seeds = Paths.root + "/fuzz/seeds/resources"
        let files = try FileManager.default.contentsOfDirectory(atPath: seeds)
        #expect(files.count == 6)
        let tool = (Paths.binary as NSString).deletingLastPathComponent + "/FuzzAndroidResources"
        let run = try runIconbadgeWith(executable: tool, [seeds])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.components(separatedBy: "ran ").count + run.stdoutText.components(separatedBy: "ran ").count == 6
                + 2)
    }
}
