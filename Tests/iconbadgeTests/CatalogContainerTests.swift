import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// `appiconset` on the containers Xcode makes: an `.xcassets` catalog (every app
/// icon set, or those named by --set), a tvOS `.brandassets` (its stacks' front
/// layers) and an Xcode 26 Icon Composer `.icon` bundle (a badge layer in front).
@Suite struct CatalogContainerTests {
    static func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func png(_ side: Int, _ rgb: UInt32, _ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let bytes = try ImageFile.pngData(of: PixelBuffer(width: side, height: side, fill: Color(rgb: rgb)))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A one-image set at `folder`.
    static func makeSet(_ folder: String, side: Int = 120) throws {
        try Self.write(
            #"{"images":[{"filename":"i.png","idiom":"iphone","scale":"2x","size":"60x60"}],"info":{"version":1}}"#,
            folder + "/Contents.json")
        try png(side, 0x0040C0, folder + "/i.png")
    }

    static func changed(_ path: String) throws -> Bool {
        try ImageFile.pixels(at: path) != PixelBuffer(width: 120, height: 120, fill: Color(rgb: 0x0040C0))
    }

    /// Every app icon set of a catalog, in groups too; a set that is a link is
    /// skipped with a note; --set picks sets by name.
    @Test func aCatalogBadgesEverySetInside() throws {
        let folder = Paths.scratch("catalog-xcassets")
        let catalog = folder + "/Assets.xcassets"
        try Self.write(#"{"info":{"version":1}}"#, catalog + "/Contents.json")
        try Self.makeSet(catalog + "/AppIcon.appiconset")
        try Self.makeSet(catalog + "/Beta/AppIconBeta.appiconset")
        try Self.makeSet(catalog + "/Logo.imageset")  // not an app icon: left alone
        try Self.makeSet(folder + "/Elsewhere.appiconset")
        try FileManager.default.createSymbolicLink(
            atPath: catalog + "/Linked.appiconset", withDestinationPath: "../Elsewhere.appiconset")
        var run = try runIconbadge(["appiconset", catalog, "--value", "3", "--out", folder + "/out"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("Linked.appiconset\" is a symbolic link"), "\(run.stderr)")
        #expect(run.stderrLines.last == "iconbadge: appiconset: badged 2 images into 2 sets in \"\(folder)/out\"")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted() == [
                "AppIcon.appiconset", "AppIconBeta.appiconset",
            ])
        #expect(try Self.changed(folder + "/out/AppIconBeta.appiconset/i.png"))
        run = try runIconbadge(["appiconset", catalog, "--value", "3", "--set", "AppIconBeta", "--in-place"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.changed(catalog + "/Beta/AppIconBeta.appiconset/i.png"))
        #expect(try !Self.changed(catalog + "/AppIcon.appiconset/i.png"))
        #expect(try !Self.changed(catalog + "/Logo.imageset/i.png"))
        #expect(try !Self.changed(folder + "/Elsewhere.appiconset/i.png"))
        run = try runIconbadge(["appiconset", catalog, "--value", "3", "--set", "Nope", "--in-place"])
        #expect(run.status == 66, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "has no set named \"Nope\"; its sets: \"AppIcon.appiconset\", \"AppIconBeta.appiconset\""))
        run = try runIconbadge(["appiconset", catalog, "--value", "3", "--out", folder + "/one.appiconset"])
        #expect(run.status == 64, "\(run.stderr)")
    }

    /// A catalog or set the user may not read is "permission denied" (66), not a
    /// catalog without sets nor a missing folder.
    @Test func aCatalogThatMayNotBeReadIsPermissionDenied() throws {
        try OtherUser.withFolder("catalog-denied") { scratch in
            let catalog = scratch + "/app/Assets.xcassets"
            try Self.write(#"{"info":{"version":1}}"#, catalog + "/Contents.json")
            try Self.makeSet(catalog + "/AppIcon.appiconset")
            try OtherUser.own(scratch + "/app")
            #expect(chmod(catalog, 0o311) == 0)
            var run = try OtherUser.run(["appiconset", catalog, "--value", "3", "--in-place"], in: scratch)
            #expect(run.status == 66, "\(run.stderr)")
            #expect(run.stderr == "iconbadge: error: \"\(catalog)\": cannot open: permission denied\n", "\(run.stderr)")
            #expect(chmod(catalog, 0o755) == 0 && chmod(scratch + "/app", 0o600) == 0)
            let set = catalog + "/AppIcon.appiconset"
            run = try OtherUser.run(["appiconset", set, "--value", "3", "--in-place"], in: scratch)
            #expect(run.status == 66, "\(run.stderr)")
            #expect(run.stderr == "iconbadge: error: \"\(set)\": cannot open: permission denied\n", "\(run.stderr)")
            #expect(chmod(scratch + "/app", 0o755) == 0)
            #expect(try !Self.changed(set + "/i.png"))
        }
    }

    /// A catalog with no app icon set is a note, not an error.
    @Test func aCatalogWithoutSetsIsANote() throws {
        let catalog = Paths.scratch("catalog-none") + "/Assets.xcassets"
        try Self.makeSet(catalog + "/Logo.imageset")
        let run = try runIconbadge(["appiconset", catalog, "--value", "3", "--in-place"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("holds no app icon set; nothing to badge"), "\(run.stderr)")
    }

    /// A tvOS brand assets folder: the front layer of each image stack gets the
    /// badge, the other layers and the top shelf image do not.
    @Test func brandAssetsBadgeTheFrontLayers() throws {
        let brand = Paths.scratch("catalog-brand") + "/App Icon & Top Shelf Image.brandassets"
        let stack = brand + "/App Icon.imagestack"
        try Self.write(
            #"{"layers":[{"filename":"Front.imagestacklayer"},{"filename":"Back.imagestacklayer"}],"info":{"version":1}}"#,
            stack + "/Contents.json")
        try Self.makeSet(stack + "/Front.imagestacklayer/Content.imageset")
        try Self.makeSet(stack + "/Back.imagestacklayer/Content.imageset")
        try Self.makeSet(brand + "/Top Shelf Image.imageset")
        var run = try runIconbadge(["appiconset", brand, "--dot", "--in-place"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.changed(stack + "/Front.imagestacklayer/Content.imageset/i.png"))
        #expect(try !Self.changed(stack + "/Back.imagestacklayer/Content.imageset/i.png"))
        #expect(try !Self.changed(brand + "/Top Shelf Image.imageset/i.png"))
        run = try runIconbadge(["appiconset", brand, "--dot", "--out", Paths.scratch("catalog-brand-out")])
        #expect(run.status == 64, "\(run.stderr)")
    }

    /// An icon.json in the shape Xcode 26 writes: two groups, front to back.
    static let iconJSON = """
        {
          "fill" : { "automatic-gradient" : "srgb:0.10000,0.40000,0.90000,1.00000" },
          "groups" : [
            { "layers" : [ { "image-name" : "front.png", "name" : "front", "glass" : true } ],
              "shadow" : { "kind" : "neutral", "opacity" : 0.5 } },
            { "layers" : [ { "image-name" : "back.png", "name" : "back" } ] }
          ],
          "supported-platforms" : { "squares" : "shared" }
        }
        """

    /// The group names, front to back, and the badge layer's pixels.
    static func read(_ bundle: String) throws -> (groups: [String], badge: PixelBuffer) {
        let json =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bundle + "/icon.json")))
            as! [String: Any]
        let groups = (json["groups"] as! [[String: Any]]).map { group in
            ((group["layers"] as! [[String: Any]]).first!["image-name"] as! String)
        }
        return (groups, try ImageFile.pixels(at: bundle + "/Assets/iconbadge-badge.png"))
    }

    /// The badge layer goes in front of every group, as a 1024 px image transparent
    /// outside the badge, which sits in the top-right corner inside the shape; the
    /// other groups and assets are kept; badging again replaces the badge.
    @Test func anIconComposerBundleGetsABadgeLayerInFront() throws {
        let folder = Paths.scratch("catalog-icon")
        let bundle = folder + "/AppIcon.icon"
        try Self.write(Self.iconJSON, bundle + "/icon.json")
        try Self.png(1024, 0xFFFFFF, bundle + "/Assets/front.png")
        try Self.png(1024, 0x202020, bundle + "/Assets/back.png")
        var run = try runIconbadge(["appiconset", bundle, "--value", "BETA", "--out", folder + "/out"])
        #expect(run.status == 0, "\(run.stderr)")
        let copy = try Self.read(folder + "/out/AppIcon.icon")
        #expect(copy.groups == ["iconbadge-badge.png", "front.png", "back.png"])
        #expect(copy.badge.width == 1024 && copy.badge.height == 1024)
        #expect(copy.badge[100, 900].alpha == 0 && copy.badge[512, 512].alpha == 0)
        #expect(copy.badge[880, 160].alpha == 255, "\(copy.badge[880, 160])")
        #expect(copy.badge[1023, 0].alpha == 0)  // the squircle's corner stays clear
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/out/AppIcon.icon/Assets").sorted() == [
                "back.png", "front.png", "iconbadge-badge.png",
            ])
        // The source is untouched by --out; in place twice leaves one badge group.
        #expect(!FileManager.default.fileExists(atPath: bundle + "/Assets/iconbadge-badge.png"))
        for value in ["1", "2"] {
            run = try runIconbadge(["appiconset", bundle, "--value", value, "--in-place"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(try Self.read(bundle).groups == ["iconbadge-badge.png", "front.png", "back.png"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: bundle).sorted() == ["Assets", "icon.json"])
    }

    /// A bundle for watchOS (circles) gets its badge inside the circle.
    @Test func aWatchBundleKeepsTheBadgeInsideTheCircle() throws {
        let bundle = Paths.scratch("catalog-icon-watch") + "/Watch.icon"
        try Self.write(
            Self.iconJSON.replacingOccurrences(
                of: #""squares" : "shared""#, with: #""circles" : [ "watchOS" ], "squares" : "shared""#),
            bundle + "/icon.json")
        try Self.png(1024, 0xFFFFFF, bundle + "/Assets/front.png")
        let run = try runIconbadge(["appiconset", bundle, "--value", "7", "--in-place"])
        #expect(run.status == 0, "\(run.stderr)")
        let badge = try Self.read(bundle).badge
        var outside = 0
        var inside = 0
        for y in 0..<1024 {
            for x in 0..<1024 where badge[x, y].alpha > 0 {
                let dx = Double(x) + 0.5 - 512
                let dy = Double(y) + 0.5 - 512
                if dx * dx + dy * dy > 512 * 512 { outside += 1 } else { inside += 1 }
            }
        }
        #expect(outside == 0)
        #expect(inside > 10_000)
    }

    /// What is not an Icon Composer bundle says so: 66 without icon.json, 65 without
    /// `groups`; nothing written.
    @Test func aBundleThatIsNotOneSaysSo() throws {
        let bundle = Paths.scratch("catalog-icon-bad") + "/Old.icon"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        var run = try runIconbadge(["appiconset", bundle, "--value", "3", "--in-place"])
        #expect(run.status == 66, "\(run.stderr)")
        #expect(run.stderr.contains("icon.json"), "\(run.stderr)")
        try Self.write(#"{"images":[]}"#, bundle + "/icon.json")
        run = try runIconbadge(["appiconset", bundle, "--value", "3", "--in-place"])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("Icon Composer"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: bundle) == ["icon.json"])
    }

    /// icon.json is written back as Xcode writes it: a file Xcode wrote changes only by
    /// the badge group's lines (no whole-file diff in review).
    @Test func iconJSONKeepsXcodesLayout() throws {
        let bundle = Paths.scratch("catalog-icon-layout") + "/AppIcon.icon"
        let xcode = """
            {
              "fill" : {
                "automatic-gradient" : "srgb:0.10000,0.40000,0.90000,1.00000"
              },
              "groups" : [
                {
                  "layers" : [
                    {
                      "image-name" : "front.png",
                      "name" : "front",
                      "position" : {
                        "scale" : 0.93,
                        "translation-in-points" : [
                          0,
                          -12.5
                        ]
                      }
                    }
                  ],
                  "shadow" : {
                    "kind" : "neutral",
                    "opacity" : 0.5
                  }
                }
              ],
              "supported-platforms" : {
                "squares" : "shared"
              }
            }
            """
        try Self.write(xcode, bundle + "/icon.json")
        try Self.png(64, 0xFFFFFF, bundle + "/Assets/front.png")
        let run = try runIconbadge(["appiconset", bundle, "--dot", "--in-place"])
        #expect(run.status == 0, "\(run.stderr)")
        let written = try String(contentsOfFile: bundle + "/icon.json", encoding: .utf8)
        let group = """
                {
                  "layers" : [
                    {
                      "glass" : false,
                      "image-name" : "iconbadge-badge.png",
                      "name" : "iconbadge badge"
                    }
                  ],
                  "name" : "iconbadge badge",
                  "shadow" : {
                    "kind" : "none",
                    "opacity" : 0
                  },
                  "specular" : false,
                  "translucency" : {
                    "enabled" : false,
                    "value" : 0
                  }
                },

            """
        #expect(written == xcode.replacingOccurrences(of: "  \"groups\" : [\n", with: "  \"groups\" : [\n" + group))
    }

    /// --out over a set that is not a copy of this one (a hand-made beta set), or a
    /// bundle without the badge layer, is refused unless --replace.
    @Test func outDoesNotReplaceAHandMadeSetWithoutReplace() throws {
        let folder = Paths.scratch("catalog-replace-own")
        try Self.makeSet(folder + "/AppIcon.appiconset")
        try Self.write(
            #"{"images":[{"filename":"beta.png","idiom":"universal","platform":"ios","size":"1024x1024"}]}"#,
            folder + "/out/AppIcon.appiconset/Contents.json")
        try Self.png(120, 0x00FF00, folder + "/out/AppIcon.appiconset/beta.png")
        var run = try runIconbadge(["appiconset", folder + "/AppIcon.appiconset", "--dot", "--out", folder + "/out"])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("is a set that is not a copy of"), "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/out/AppIcon.appiconset/beta.png"))
        run = try runIconbadge([
            "appiconset", folder + "/AppIcon.appiconset", "--dot", "--out", folder + "/out", "--replace",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out/AppIcon.appiconset/beta.png"))
        // A bundle there without the badge layer.
        try Self.write(Self.iconJSON, folder + "/B.icon/icon.json")
        try Self.write(Self.iconJSON, folder + "/o2/B.icon/icon.json")
        run = try runIconbadge(["appiconset", folder + "/B.icon", "--dot", "--out", folder + "/o2"])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("without iconbadge's badge layer"), "\(run.stderr)")
    }
}
