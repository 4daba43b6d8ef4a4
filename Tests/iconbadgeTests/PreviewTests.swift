import BadgeCore
import BadgeJobs
import BadgeRender
import Foundation
import TestSupport
import Testing

/// `iconbadge preview` and `--preview`: a contact sheet of every output as the
/// devices show it, for an iOS set, a macOS set, a watch set, an Icon Composer bundle
/// and Android apps (NewPipe's PNG layers, the sample app's VectorDrawable).
@Suite struct PreviewTests {
    /// Each tile of `sheet` composed at its own size.
    static func tiles(_ sheet: ContactSheet) throws -> [PixelBuffer] {
        var painter = try ContactSheetPainter(limits: ImageLimits())
        return try painter.tilePNGs(sheet).map { try ImageFile.pixels(of: $0, path: "tile.png") }
    }

    /// A copy of a fixture folder in a scratch folder.
    static func copy(_ fixture: String, _ name: String) throws -> String {
        let folder = Paths.scratch(name)
        let copy = folder + "/" + (fixture.split(separator: "/").last.map(String.init) ?? fixture)
        try FileManager.default.copyItem(atPath: Paths.fixture(fixture), toPath: copy)
        return copy
    }

    /// The iOS set with dark and tinted images: light, dark and tinted side by side,
    /// under Apple's mask, and the sizes a device draws the 1024 px image at.
    @Test func anIOSSetIsShownLightDarkAndTinted() throws {
        let set = try AppIconSet(folder: Paths.fixture("xcode/App/Assets.xcassets/AppIcon.appiconset"))
        let sheet = try AppIconSetPreview.sheet(title: "App", sets: [set], limits: ImageLimits())
        #expect(sheet.sections.map(\.title) == ["iOS and iPadOS"])
        // The slot, then home screen @3x and @2x, Spotlight, Settings, notifications.
        #expect(sheet.sections[0].groups.count == 6)
        #expect(sheet.tiles.count == 18)
        #expect(sheet.sections[0].groups[0].tiles.map(\.caption) == ["light", "dark", "tinted"])
        #expect(sheet.sections[0].groups[0].title == "iOS 1024 pt · AppIcon.png · 1024 px, shown at 256 px")
        #expect(sheet.sections[0].groups.map { $0.tiles[0].side } == [256, 180, 120, 80, 58, 40])
        // 1:1 and 2× up to 128 px.
        #expect(sheet.sections[0].groups.map { $0.tiles[0].zooms.count } == [1, 1, 2, 2, 2, 2])
        let tiles = try Self.tiles(sheet)
        let light = tiles[0]
        let dark = tiles[1]
        let tinted = tiles[2]
        #expect(light.width == 256)
        // The mask: the corner is outside it, the middle of an edge inside.
        #expect(light[0, 0].alpha == 0)
        #expect(light[128, 1].alpha == 255)
        // The dark tile shows the dark image, not the light one.
        let lightSource = try ImageFile.pixels(
            at: Paths.fixture("xcode/App/Assets.xcassets/AppIcon.appiconset/AppIcon.png"))
        #expect(light[128, 20] != dark[128, 20])
        #expect(abs(Int(light[128, 20].blue) - Int(lightSource[512, 80].blue)) <= 2)
        // The tinted tile: the tint (#FFB340) scaled by luma, so red ≥ green ≥ blue.
        let sample = tinted[128, 20]
        #expect(sample.red >= sample.green && sample.green >= sample.blue, "\(sample)")
    }

    /// NetNewsWire's Mac set: each image as it is (no mask) on a light and a dark
    /// desktop, the small slots at 1:1 and 2×.
    @Test func aMacSetIsShownAsItIsOnLightAndDark() throws {
        let folder = Paths.fixture("xcode/NetNewsWire/AppIcon.appiconset")
        let sheet = try AppIconSetPreview.sheet(
            title: "NetNewsWire", sets: [try AppIconSet(folder: folder)], limits: ImageLimits())
        #expect(sheet.sections.map(\.title) == ["macOS"])
        #expect(sheet.tiles.count == 10)
        #expect(sheet.sections[0].groups.map(\.title).first == "Mac 16 pt @1x · Icon-MacOS-16x16@1x.png · 16 px")
        #expect(sheet.tiles.map(\.caption).prefix(2) == ["on light", "on dark"])
        let tiles = try Self.tiles(sheet)
        let source = try ImageFile.pixels(at: folder + "/Icon-MacOS-32x32@1x.png")
        // No mask: every pixel is the image's.
        #expect(tiles[4] == source)
    }

    /// A watch set: under the circle, on a black face.
    @Test func aWatchSetIsShownUnderTheCircle() throws {
        let folder = Paths.scratch("preview-watch") + "/AppIcon.appiconset"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.fixture("icons/app-watch-196.png"), toPath: folder + "/w.png")
        try """
        { "images" : [ { "filename" : "w.png", "idiom" : "watch", "role" : "appLauncher", "scale" : "2x", "size" : "98x98", "subtype" : "49mm" } ] }
        """.write(toFile: folder + "/Contents.json", atomically: true, encoding: .utf8)
        let sheet = try AppIconSetPreview.sheet(
            title: "Watch", sets: [try AppIconSet(folder: folder)], limits: ImageLimits())
        #expect(sheet.sections.map(\.title) == ["watchOS"])
        #expect(sheet.tiles.count == 1)
        #expect(sheet.tiles[0].mask == .circle)
        #expect(sheet.tiles[0].backdrop == .black)
        let tile = try Self.tiles(sheet)[0]
        #expect(tile.width == 196)
        // Outside the circle nothing; inside it the image's own pixels (drawn at its
        // size, not resampled).
        #expect(tile[2, 2].alpha == 0)
        #expect(tile[20, 20].alpha == 0)
        let source = try ImageFile.pixels(at: folder + "/w.png")
        #expect(tile[98, 20] == source[98, 20], "\(tile[98, 20])")
        #expect(tile[98, 98] == source[98, 98])
        // One tile, said so.
        let run = try runIconbadge([
            "appiconset", folder, "--value", "3", "--out", Paths.scratch("preview-watch-out"), "--preview",
            Paths.scratch("preview-watch-out") + "/watch.png",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderrLines.last?.hasSuffix("watch.png\" (1 tile)") == true, "\(run.stderr)")
    }

    /// An Icon Composer bundle: the fill and the groups composed flat, with the note
    /// that glass and shadows are not drawn; a watch-capable one under the circle too.
    @Test func anIconComposerBundleIsComposedFlat() throws {
        let bundle = try IconComposerBundle(path: Paths.fixture("xcode/App/AppIcon.icon"))
        let sheet = try IconBundlePreview.sheet(title: "AppIcon.icon", bundle: bundle, limits: ImageLimits())
        #expect(
            sheet.notes.first?.contains("glass, specular highlights, shadows, translucency and blur are not drawn")
                == true)
        #expect(sheet.sections.map(\.title) == ["Icon Composer icon (iOS, iPadOS, macOS 26)", "watchOS"])
        #expect(sheet.tiles.count == 9)
        let tile = try Self.tiles(sheet)[0]
        // The fill, srgb:0.25098,0.61176,1: (64, 156, 255), in a corner inside the mask.
        #expect(tile[40, 40] == Color(red: 64, green: 156, blue: 255), "\(tile[40, 40])")
        // The envelope layer, white: its left side and its top edge (its inside is the fill).
        #expect(tile[64, 128] == .white, "\(tile[64, 128])")
        #expect(tile[128, 84] == .white, "\(tile[128, 84])")
        #expect(tile[128, 100] == Color(red: 64, green: 156, blue: 255), "\(tile[128, 100])")
        #expect(tile[0, 0].alpha == 0)
    }

    /// NewPipe badged: its adaptive icon composed from the colour background, the PNG
    /// foreground and the badge layer under each mask, themed in both palettes, and the
    /// legacy icons as they are.
    @Test func newPipeIsComposedAsTheLauncherDoes() throws {
        let app = try Self.copy("android/newpipe", "preview-newpipe")
        let run = try runIconbadge(["android", app + "/res", "--out", app + "/debug/res", "--value", "3"])
        #expect(run.status == 0, "\(run.stderr)")
        let sheet = try AndroidPreview.sheet(
            title: "NewPipe", folders: [app + "/debug/res", app + "/res"], names: ["ic_launcher"], limits: ImageLimits()
        )
        #expect(sheet.sections.map(\.title).count == 2)
        // mdpi and xxxhdpi: three masks and four themed tiles each; five legacy densities.
        #expect(sheet.sections[0].groups.map { $0.tiles.count } == [7, 7])
        #expect(
            sheet.sections[1].groups[0].tiles.map(\.caption) == [
                "mdpi · 45 px", "hdpi · 75 px", "xhdpi · 96 px", "xxhdpi · 144 px", "xxxhdpi · 192 px",
            ])
        #expect(sheet.tiles.allSatisfy { $0.missing.isEmpty })
        let group = sheet.sections[0].groups[1]
        #expect(
            group.tiles.map(\.caption) == [
                "circle", "squircle", "rounded square", "themed, purple, light", "themed, purple, dark",
                "themed, green, light", "themed, green, dark",
            ])
        var painter = try ContactSheetPainter(limits: ImageLimits())
        let one = ContactSheet(title: "", sections: [ContactSheet.Section(title: "", groups: [group])])
        let tiles = try painter.tilePNGs(one).map { try ImageFile.pixels(of: $0, path: "t.png") }
        // The circle mask: the corner is outside; the rounded square's corner is inside
        // but for its radius; the background, #CD201F, at the left edge's middle.
        #expect(tiles[0][2, 2].alpha == 0)
        #expect(tiles[2][12, 12].alpha == 255)
        #expect(tiles[0][6, 96] == Color(rgb: 0xCD201F), "\(tiles[0][6, 96])")
        // The badge layer is drawn: the red of the badge near the top right.
        let badged = (120..<170).contains { x in (20..<70).contains { y in tiles[0][x, y] == .systemRed } }
        #expect(badged)
        // Themed: the light purple palette's background, #EADDFF, at the left edge.
        #expect(tiles[3][6, 96] == Color(rgb: 0xEADDFF), "\(tiles[3][6, 96])")
    }

    /// An overlay `android` wrote, given alone, is refused (64) naming main's res/ to
    /// give after it (alone its layers would be hatched, as no device shows them);
    /// with main's res/ after it, the sheet is drawn. A variant's own res/ (no record)
    /// is still previewed alone.
    @Test func anOverlayAloneAsksForMainsResources() throws {
        let app = try Self.copy("android/newpipe", "preview-overlay-alone")
        #expect(try runIconbadge(["android", app + "/res", "--out", app + "/debug/res", "--value", "3"]).status == 0)
        let alone = try runIconbadge(["preview", app + "/debug/res", "-o", app + "/s.png"])
        #expect(alone.status == 64, "\(alone.stderr)")
        #expect(alone.stderrLines.count == 1, "\(alone.stderr)")
        #expect(
            alone.stderr.contains(
                "an overlay written by iconbadge android holds only what it changed; give main's res/ after it"),
            "\(alone.stderr)")
        #expect(!FileManager.default.fileExists(atPath: app + "/s.png"))
        let both = try runIconbadge(["preview", app + "/debug/res", app + "/res", "-o", app + "/s.png"])
        #expect(both.status == 0, "\(both.stderr)")
        let main = try runIconbadge(["preview", app + "/res", "-o", app + "/main.png"])
        #expect(main.status == 0, "\(main.stderr)")
    }

    /// The sample app's VectorDrawable foreground is drawn as `android` draws it
    /// (converted to SVG): the chevron and the bar in white on the green background,
    /// the badge over them, the themed icon from the overlay's monochrome layer.
    @Test func vectorLayersAreDrawn() throws {
        let app = try Self.copy("android/sample-app", "preview-sample")
        let run = try runIconbadge(["android", app + "/res", "--out", app + "/debug/res", "--value", "BETA"])
        #expect(run.status == 0, "\(run.stderr)")
        let sheet = try AndroidPreview.sheet(
            title: "sample", folders: [app + "/debug/res", app + "/res"], names: ["ic_launcher", "ic_launcher_round"],
            limits: ImageLimits())
        #expect(sheet.tiles.count == 2 * 2 * 7 + 2 * 5)
        #expect(sheet.tiles.allSatisfy { $0.missing.isEmpty })
        #expect(!sheet.notes.contains { $0.hasPrefix("Hatched") })
        let tiles = try Self.tiles(
            ContactSheet(title: "", sections: [ContactSheet.Section(title: "", groups: [sheet.sections[0].groups[1]])]))
        // 192 px: 8/3 px a dp, the 108 dp layer from -18 dp. The chevron's middle at
        // (49, 54) dp, the bar's at (65, 68) dp; the background at the left edge.
        let circle = tiles[0]
        #expect(circle[82, 96] == .white, "\(circle[82, 96])")
        #expect(circle[125, 133] == .white, "\(circle[125, 133])")
        #expect(circle[6, 96] == Color(rgb: 0x2E7D32), "\(circle[6, 96])")
        let badged = (100..<180).contains { x in (20..<80).contains { y in circle[x, y] == .systemRed } }
        #expect(badged)
        // Themed, purple, light: the drawing in #49454F on #EADDFF.
        #expect(tiles[3][82, 96] == Color(rgb: 0x49454F), "\(tiles[3][82, 96])")
        #expect(tiles[3][6, 96] == Color(rgb: 0xEADDFF), "\(tiles[3][6, 96])")
    }

    /// A layer that cannot be drawn (a theme attribute only a running app resolves) is
    /// hatched, with one note naming the file, the line and the layers it keeps out;
    /// the layers under it still show.
    @Test func aLayerThatCannotBeDrawnIsHatchedAndNamed() throws {
        let app = try Self.copy("android/sample-app", "preview-attr")
        let drawable = app + "/res/drawable/ic_launcher_foreground.xml"
        let text = try String(contentsOfFile: drawable, encoding: .utf8)
        let changed = text.replacingOccurrences(
            of: "android:fillColor=\"#FFFFFF\"\n        android:pathData=\"M56",
            with: "android:fillColor=\"?attr/colorPrimary\"\n        android:pathData=\"M56")
        #expect(changed != text)
        try changed.write(toFile: drawable, atomically: true, encoding: .utf8)
        let sheet = try AndroidPreview.sheet(
            title: "attr", folders: [app + "/res"], names: ["ic_launcher", "ic_launcher_round"], limits: ImageLimits())
        let problem =
            "\(drawable): line 11: android:fillColor is the theme attribute ?attr/colorPrimary, which has a value only in a running app's theme; give a colour or @color/NAME in the drawable"
        let adaptive = sheet.sections[0].groups.flatMap(\.tiles)
        #expect(adaptive.count == 2 * 2 * 7)
        #expect(adaptive.allSatisfy { $0.missing == [problem] }, "\(adaptive.map(\.missing))")
        #expect(
            sheet.notes.last
                == "Hatched, not drawn: the foreground of ic_launcher, the monochrome of ic_launcher, the foreground of ic_launcher_round, the monochrome of ic_launcher_round: \(problem)."
        )
        let tile = try Self.tiles(
            ContactSheet(title: "", sections: [ContactSheet.Section(title: "", groups: [sheet.sections[0].groups[1]])]))[
                0]
        // The green background shows between the hatching's lines.
        let greens = (0..<192).filter { tile[$0, 96] == Color(rgb: 0x2E7D32) }.count
        #expect(greens > 40, "\(greens)")
        // The command writes the sheet all the same.
        let run = try runIconbadge(["preview", app + "/res", "-o", Paths.scratch("preview-attr-sheet") + "/a.png"])
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// The command: one PNG, the same bytes each time; an HTML page of its own; the
    /// errors.
    @Test func thePreviewCommandWritesTheSameSheetEachTime() throws {
        let folder = Paths.scratch("preview-command")
        let set = Paths.fixture("xcode/NetNewsWire/AppIcon.appiconset")
        var run = try runIconbadge(["preview", set, "-o", folder + "/a.png"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "iconbadge: preview: wrote \"\(folder)/a.png\" (10 tiles)\n")
        run = try runIconbadge(["preview", set, "-o", folder + "/b.png"])
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: folder + "/a.png"))
                == Data(contentsOf: URL(fileURLWithPath: folder + "/b.png")))
        let sheet = try ImageFile.pixels(at: folder + "/a.png")
        #expect(sheet.width == 1200)
        run = try runIconbadge(["preview", set, "-o", folder + "/page.html"])
        #expect(run.status == 0, "\(run.stderr)")
        let page = try String(contentsOfFile: folder + "/page.html", encoding: .utf8)
        #expect(page.contains("default-src 'none'; img-src data:"))
        #expect(page.components(separatedBy: "<figure>").count - 1 == 10)
        // Every image is at most 128 px: each is shown at 1:1 and at 2×.
        #expect(page.components(separatedBy: "data:image/png;base64,iVBORw0KGgo").count - 1 == 20)
        #expect(!page.contains("<script"))
        run = try runIconbadge(["preview", set, "-o", folder + "/x.jpg"])
        #expect(run.status == 64)
        #expect(
            run.stderr
                == "iconbadge: error: -o \"\(folder)/x.jpg\": a preview is a .png contact sheet or an .html page\n")
        run = try runIconbadge(["preview", set])
        #expect(run.status == 64)
        run = try runIconbadge([
            "preview", Paths.fixture("android/sample-app/res"), "--icon", "nothing", "-o", folder + "/n.png",
        ])
        #expect(run.status == 66, "\(run.stderr)")
        run = try runIconbadge([
            "preview", Paths.fixture("android/newpipe/res"), Paths.fixture("xcode/App/AppIcon.icon"), "-o",
            folder + "/m.png",
        ])
        #expect(run.status == 64, "\(run.stderr)")
        // A mistyped overlay folder is not left out quietly.
        run = try runIconbadge([
            "preview", folder + "/debug/res", Paths.fixture("android/newpipe/res"), "-o", folder + "/o.png",
        ])
        #expect(run.status == 66, "\(run.stderr)")
        #expect(run.stderr == "iconbadge: error: \"\(folder)/debug/res\": no such res/ folder\n")
        #expect(!FileManager.default.fileExists(atPath: folder + "/o.png"))
    }

    /// `--preview` on appiconset and android: written after the set, and said so, its
    /// missing folders made as `--out`'s are; a preview path that cannot be written (a
    /// file where a folder should be) stops the run before anything is.
    @Test func previewOnTheCatalogCommands() throws {
        let folder = Paths.scratch("preview-catalog")
        var run = try runIconbadge([
            "appiconset", Paths.fixture("xcode/App/AppIcon.icon"), "--value", "3", "--out", folder + "/icon",
            "--preview", folder + "/icon.png",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderrLines.last == "iconbadge: appiconset: preview in \"\(folder)/icon.png\" (9 tiles)")
        let app = try Self.copy("android/newpipe", "preview-catalog-android")
        run = try runIconbadge([
            "android", app + "/res", "--out", app + "/debug/res", "--value", "3", "--preview", folder + "/np.html",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderrLines.last == "iconbadge: android: preview in \"\(folder)/np.html\" (19 tiles)")
        run = try runIconbadge([
            "appiconset", Paths.fixture("xcode/NetNewsWire/AppIcon.appiconset"), "--value", "BETA", "--out",
            folder + "/nnw", "--preview", folder + "/icon.png/nnw.png",
        ])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/nnw"))
        run = try runIconbadge([
            "appiconset", Paths.fixture("xcode/NetNewsWire/AppIcon.appiconset"), "--value", "BETA", "--out",
            folder + "/nnw", "--preview", folder + "/missing/nnw.png",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/missing/nnw.png"))
    }

    /// Hostile input: a sheet is never written through a link, a bad --preview stops the
    /// run before the set is written, names on the page are escaped, and an icon that
    /// is a link is not read.
    @Test func previewsOfHostileInput() throws {
        let folder = Paths.scratch("preview-hostile")
        let set = Paths.fixture("xcode/NetNewsWire/AppIcon.appiconset")
        // A sheet path that is a link, or below one: 73, the link's target untouched.
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder + "/target.txt"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.png", withDestinationPath: "target.txt")
        try FileManager.default.createDirectory(atPath: folder + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/linked", withDestinationPath: "real")
        var run = try runIconbadge(["preview", set, "-o", "link.png"], in: folder)
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("is a symbolic link"), "\(run.stderr)")
        #expect(try String(contentsOfFile: folder + "/target.txt", encoding: .utf8) == "keep")
        run = try runIconbadge(["preview", set, "-o", "linked/a.png"], in: folder)
        #expect(run.status == 73, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/real").isEmpty)
        // --preview is checked before anything is written: a link, a wrong extension.
        for (preview, status) in [("link.png", Int32(73)), ("sheet.jpg", 64), ("linked/b.html", 73)] {
            run = try runIconbadge(
                ["appiconset", set, "--value", "3", "--out", "out", "--preview", preview], in: folder)
            #expect(run.status == status, "\(preview): \(run.stderr)")
            #expect(run.stderrLines.count == 1, "\(preview): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/out"), "\(preview)")
        }
        let app = try Self.copy("android/newpipe", "preview-hostile-android")
        run = try runIconbadge([
            "android", app + "/res", "--out", app + "/debug/res", "--value", "3", "--preview", "x.gif",
        ])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: app + "/debug"))
        // A folder named like markup is text on the page.
        let named = folder + "/<img src=x>.appiconset"
        try FileManager.default.copyItem(atPath: set, toPath: named)
        run = try runIconbadge(["preview", named, "-o", "named.html"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let page = try String(contentsOfFile: folder + "/named.html", encoding: .utf8)
        #expect(page.contains("&lt;img src=x&gt;.appiconset"))
        #expect(!page.contains("<img src=x>"))
        // An image of a set that is a link is refused, as appiconset refuses it.
        let linkedSet = folder + "/Linked.appiconset"
        try FileManager.default.copyItem(atPath: set, toPath: linkedSet)
        try FileManager.default.removeItem(atPath: linkedSet + "/Icon-MacOS-16x16@1x.png")
        try FileManager.default.createSymbolicLink(
            atPath: linkedSet + "/Icon-MacOS-16x16@1x.png", withDestinationPath: set + "/Icon-MacOS-16x16@1x.png")
        run = try runIconbadge(["preview", linkedSet, "-o", "linked-set.png"], in: folder)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(
            run.stderr
                == "iconbadge: error: \"\(linkedSet)/Icon-MacOS-16x16@1x.png\": is a symbolic link; the images of a set must be its own files\n"
        )
        #expect(!FileManager.default.fileExists(atPath: folder + "/linked-set.png"))
        // A legacy icon that is a link is not read: that density is left out.
        let linked = try Self.copy("android/newpipe", "preview-hostile-link")
        let icon = linked + "/res/mipmap-hdpi/ic_launcher.png"
        try FileManager.default.removeItem(atPath: icon)
        try FileManager.default.createSymbolicLink(atPath: icon, withDestinationPath: "../mipmap-xhdpi/ic_launcher.png")
        let sheet = try AndroidPreview.sheet(
            title: "linked", folders: [linked + "/res"], names: ["ic_launcher"], limits: ImageLimits())
        #expect(sheet.sections.last?.groups[0].tiles.map(\.caption).contains("hdpi · 75 px") == false)
        #expect(sheet.sections.last?.groups[0].tiles.count == 4)
    }
}
