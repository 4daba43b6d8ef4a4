import BadgeCore
import Testing

/// The VectorDrawable (and other drawables) to SVG converter: what each element
/// becomes, the values it resolves, and what it refuses, with the file and line.
@Suite struct AndroidDrawableSVGTests {
    static let android = "xmlns:android=\"http://schemas.android.com/apk/res/android\""

    /// A lookup of values (`type/name` → text) and files (`type/name` → bytes).
    static func lookup(values: [String: String] = [:], files: [String: [UInt8]] = [:]) -> AndroidResourceLookup {
        AndroidResourceLookup(
            value: { reference in
                values[reference.type + "/" + reference.name].map {
                    AndroidResourceValue(text: $0, path: "res/values/values.xml", line: 7)
                }
            },
            file: { reference, _ in
                let key = reference.type + "/" + reference.name
                return files[key].map {
                    AndroidResourceFile(
                        path: "res/\(reference.type)/\(reference.name)\($0.first == 0x89 ? ".png" : ".xml")", bytes: $0,
                        density: $0.first == 0x89 ? 2 : nil)
                }
            })
    }

    /// The SVG of a drawable file's text, drawn in 108 dp.
    static func svg(_ text: String, lookup: AndroidResourceLookup = lookup(), limits: ImageLimits = ImageLimits())
        throws(AndroidDrawableProblem) -> String
    {
        let bytes = try AndroidDrawableSVG.file(
            Array(text.utf8), path: "res/drawable/test.xml", width: 108, height: 108, density: 2, lookup: lookup,
            limits: limits)
        let document = String(decoding: bytes, as: UTF8.self)
        // Every document iconbadge writes is well-formed XML.
        #expect((try? XMLScanner.parse(bytes)) != nil, "\(document)")
        return document
    }

    static func vector(_ body: String, viewport: String = "24") -> String {
        """
        <vector \(android) android:width="24dp" android:height="24dp"
            android:viewportWidth="\(viewport)" android:viewportHeight="\(viewport)">
        \(body)
        </vector>
        """
    }

    /// The problem converting `text`.
    static func problem(_ text: String, lookup: AndroidResourceLookup = lookup(), limits: ImageLimits = ImageLimits())
        -> AndroidDrawableProblem?
    {
        do throws(AndroidDrawableProblem) {
            _ = try svg(text, lookup: lookup, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func aVectorIsAViewportScaledToItsBounds() throws {
        let document = try Self.svg(
            Self.vector(##"<path android:pathData="M2,2h20v20h-20z" android:fillColor="#80FF0000" />"##))
        #expect(document.contains(##"width="108" height="108" viewBox="0 0 108 108""##))
        #expect(
            document.contains(
                ##"<svg x="0" y="0" width="108" height="108" viewBox="0 0 24 24" preserveAspectRatio="none" overflow="hidden">"##
            ), "\(document)")
        // #AARRGGBB: alpha first.
        #expect(
            document.contains(##"<path d="M 2 2 h 20 v 20 h -20 z" fill="#ff0000" fill-opacity="0.501961"/>"##),
            "\(document)")
    }

    @Test func groupsTransformAboutTheirPivotInAndroidsOrder() throws {
        let document = try Self.svg(
            Self.vector(
                """
                <group android:pivotX="5" android:pivotY="6" android:rotation="45" android:scaleX="2" android:scaleY="3"
                    android:translateX="10" android:translateY="20">
                    <path android:pathData="M0 0L1 1" android:strokeColor="#000" android:strokeWidth="1.5"
                        android:strokeLineCap="round" android:strokeLineJoin="bevel" android:strokeMiterLimit="8" />
                </group>
                """))
        #expect(
            document.contains(##"<g transform="translate(15 26) rotate(45) scale(2 3) translate(-5 -6)">"##),
            "\(document)")
        #expect(
            document.contains(
                ##"<path d="M 0 0 L 1 1" fill="none" stroke="#000000" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="bevel" stroke-miterlimit="8"/>"##
            ), "\(document)")
    }

    /// A clip path clips what follows it in its group, not what came before.
    @Test func aClipPathClipsTheRestOfItsGroup() throws {
        let document = try Self.svg(
            Self.vector(
                """
                <path android:pathData="M0 0h4v4z" android:fillColor="#fff" />
                <clip-path android:pathData="M0 0h12v12h-12z" />
                <path android:pathData="M1 1h4v4z" android:fillColor="#fff" android:fillType="evenOdd" />
                """))
        #expect(
            document.contains(##"<clipPath id="c1"><path d="M 0 0 h 12 v 12 h -12 z"/></clipPath>"##), "\(document)")
        let before = try #require(document.range(of: ##"<path d="M 0 0 h 4"##))
        let clip = try #require(document.range(of: ##"<g clip-path="url(#c1)">"##))
        let after = try #require(
            document.range(of: ##"<path d="M 1 1 h 4 v 4 z" fill="#ffffff" fill-rule="evenodd"/>"##))
        #expect(before.lowerBound < clip.lowerBound && clip.lowerBound < after.lowerBound)
    }

    /// Colours and path data given as references resolve through the values; a
    /// transparent fill draws nothing; the framework's colours are known.
    @Test func referencesResolveThroughValues() throws {
        let lookup = Self.lookup(values: [
            "color/brand": "@color/primary", "color/primary": "#3367D6", "string/shape": "\"M0 0h5v5z\"",
            "color/clear": "@android:color/transparent",
        ])
        let document = try Self.svg(
            Self.vector(
                """
                <path android:pathData="@string/shape" android:fillColor="@color/brand" android:fillAlpha="0.5" />
                <path android:pathData="M1 1h1" android:fillColor="@color/clear" />
                """), lookup: lookup)
        #expect(document.contains(##"<path d="M 0 0 h 5 v 5 z" fill="#3367d6" fill-opacity="0.5"/>"##), "\(document)")
        #expect(document.contains(##"<path d="M 1 1 h 1" fill="none"/>"##), "\(document)")
        // A value that is not a colour is named where it is written.
        let bad = Self.problem(
            Self.vector(##"<path android:pathData="M0 0h1" android:fillColor="@color/brand" />"##),
            lookup: Self.lookup(values: ["color/brand": "blue"]))
        #expect(bad?.path == "res/values/values.xml" && bad?.line == 7, "\(String(describing: bad))")
        #expect(bad?.reason.contains("\"blue\", not a colour") == true)
    }

    /// Gradients in aapt:attr: linear and radial in the path's coordinates.
    @Test func inlineGradientsBecomeSVGGradients() throws {
        let aapt = "xmlns:aapt=\"http://schemas.android.com/aapt\""
        let document = try Self.svg(
            """
            <vector \(Self.android) \(aapt) android:width="24dp" android:height="24dp"
                android:viewportWidth="24" android:viewportHeight="24">
                <path android:pathData="M0 0h24v24h-24z">
                    <aapt:attr name="android:fillColor">
                        <gradient android:type="linear" android:startX="0" android:startY="24" android:endX="24" android:endY="0"
                            android:tileMode="mirror">
                            <item android:offset="0" android:color="#FF0082C9" />
                            <item android:offset="1" android:color="#801CAFFF" />
                        </gradient>
                    </aapt:attr>
                </path>
                <path android:pathData="M0 0h2v2z">
                    <aapt:attr name="android:fillColor">
                        <gradient android:type="radial" android:centerX="12" android:centerY="12" android:gradientRadius="6"
                            android:startColor="#000" android:centerColor="#888" android:endColor="#fff" />
                    </aapt:attr>
                </path>
            </vector>
            """)
        #expect(
            document.contains(
                ##"<linearGradient id="g1" gradientUnits="userSpaceOnUse" x1="0" y1="24" x2="24" y2="0" spreadMethod="reflect"><stop offset="0" stop-color="#0082c9"/><stop offset="1" stop-color="#1cafff" stop-opacity="0.501961"/></linearGradient>"##
            ), "\(document)")
        #expect(
            document.contains(
                ##"<radialGradient id="g2" gradientUnits="userSpaceOnUse" cx="12" cy="12" fx="12" fy="12" r="6" spreadMethod="pad"><stop offset="0" stop-color="#000000"/><stop offset="0.5" stop-color="#888888"/><stop offset="1" stop-color="#ffffff"/></radialGradient>"##
            ), "\(document)")
        #expect(document.contains(##"fill="url(#g1)""##) && document.contains(##"fill="url(#g2)""##))
    }

    /// A shape's gradient runs between the edges its angle names (90: bottom to top);
    /// corners are clamped to half the shorter side.
    @Test func shapesDrawAsGradientDrawableDoes() throws {
        let document = try Self.svg(
            """
            <shape \(Self.android) android:shape="rectangle">
                <gradient android:startColor="#F3F4F5" android:endColor="#F8F9FA" android:angle="90" />
                <corners android:radius="80dp" />
                <stroke android:width="4dp" android:color="#000" />
            </shape>
            """)
        // The rectangle inset by half the stroke: 2 to 106.
        #expect(
            document.contains(
                ##"<linearGradient id="g1" gradientUnits="userSpaceOnUse" x1="2" y1="106" x2="2" y2="2"><stop offset="0" stop-color="#f3f4f5"/><stop offset="1" stop-color="#f8f9fa"/></linearGradient>"##
            ), "\(document)")
        #expect(
            document.contains(
                ##"<rect x="2" y="2" width="104" height="104" rx="52" ry="52" fill="url(#g1)" stroke="#000000" stroke-width="4"/>"##
            ), "\(document)")
        let oval = try Self.svg("<shape \(Self.android) android:shape=\"oval\"><solid android:color=\"#f00\"/></shape>")
        #expect(oval.contains(##"<ellipse cx="54" cy="54" rx="54" ry="54" fill="#ff0000"/>"##), "\(oval)")
        #expect(
            Self.problem("<shape \(Self.android)><gradient android:angle=\"30\"/></shape>")?.reason.contains(
                "multiple of 45") == true)
    }

    /// An inset's fractions are of its bounds; in a layer list (padding mode nest),
    /// each item is inset by the padding of the items before it, an inset's included.
    @Test func insetsAndLayerListsPlaceTheirDrawables() throws {
        let square = Array(
            Self.vector(##"<path android:pathData="M0 0h24v24h-24z" android:fillColor="#000" />"##).utf8)
        let lookup = Self.lookup(files: ["drawable/square": square])
        let inset = try Self.svg(
            "<inset \(Self.android) android:drawable=\"@drawable/square\" android:inset=\"25%\" />", lookup: lookup)
        #expect(inset.contains(##"<svg x="27" y="27" width="54" height="54" viewBox="0 0 24 24""##), "\(inset)")
        let list = try Self.svg(
            """
            <layer-list \(Self.android)>
                <item android:left="4dp"><inset android:drawable="@drawable/square" android:inset="10dp" /></item>
                <item android:drawable="@drawable/square" android:gravity="center" android:width="20dp" android:height="20dp" />
                <item android:drawable="#FF00FF00" android:top="100dp" />
            </layer-list>
            """, lookup: lookup)
        #expect(list.contains(##"<svg x="14" y="10" width="84" height="88""##), "\(list)")
        // The second item's container is inset by the first's padding (its 10 dp insets).
        #expect(list.contains(##"<svg x="44" y="44" width="20" height="20""##), "\(list)")
        #expect(list.contains(##"<rect x="10" y="110" width="88" height="-12""##) == false)
    }

    /// LayerDrawable's padding modes: nesting, an item is inset by the paddings of the
    /// items before it (an `<inset>`'s, in dp or as a fraction of its bounds); stacking,
    /// never. A stacking list reports the largest of its items' paddings on each side
    /// (computeStackedPadding), which a nesting list around it applies.
    @Test func paddingModesNestAndStack() throws {
        let square = Array(
            Self.vector(##"<path android:pathData="M0 0h24v24h-24z" android:fillColor="#000" />"##).utf8)
        let lookup = Self.lookup(files: ["drawable/square": square])
        func list(_ mode: String, _ inset: String) throws -> String {
            try Self.svg(
                """
                <layer-list \(Self.android)\(mode.isEmpty ? "" : " android:paddingMode=\"\(mode)\"")>
                    <item><inset android:drawable="@drawable/square" android:inset="\(inset)" /></item>
                    <item android:drawable="@drawable/square" />
                </layer-list>
                """, lookup: lookup)
        }
        // Nest (the default): the second square inside the first's insets.
        #expect(try list("", "10dp").contains(##"<svg x="10" y="10" width="88" height="88""##))
        // A fraction of the bounds: the inset's content and the square both at 25 %.
        #expect(
            try list("nest", "25%").components(separatedBy: ##"<svg x="27" y="27" width="54" height="54""##).count == 3)
        // Stack: the second square fills the list.
        for inset in ["10dp", "25%"] {
            #expect(try list("stack", inset).contains(##"<svg x="0" y="0" width="108" height="108""##), "\(inset)")
        }
        // A stacking list inside a nesting one: its padding is its items' largest.
        let nested = try Self.svg(
            """
            <layer-list \(Self.android)>
                <item>
                    <layer-list android:paddingMode="stack">
                        <item><inset android:drawable="@drawable/square" android:inset="10dp" /></item>
                        <item><inset android:drawable="@drawable/square" android:insetLeft="4dp" android:insetTop="20dp" /></item>
                    </layer-list>
                </item>
                <item android:drawable="@drawable/square" />
            </layer-list>
            """, lookup: lookup)
        #expect(nested.contains(##"<svg x="10" y="20" width="88" height="78""##), "\(nested)")
    }

    /// A bitmap is embedded as a data: URL at its intrinsic size (pixels over its
    /// folder's density) where its gravity puts it.
    @Test func bitmapsAreEmbedded() throws {
        // A 4 × 2 grey PNG (signature, IHDR, IDAT, IEND), from a folder of density 2.
        let png: [UInt8] = [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
            0x00, 0x04, 0x00, 0x00, 0x00, 0x02, 0x08, 0x00, 0x00, 0x00, 0x00, 0x5A, 0xC3, 0x22, 0xBF, 0x00, 0x00, 0x00,
            0x0E, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x68, 0x00, 0x02, 0x06, 0x10, 0x01, 0x00, 0x14, 0x0A, 0x04,
            0x01, 0xE8, 0x8E, 0x83, 0xE7, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
        ]
        let lookup = Self.lookup(files: ["drawable/logo": png])
        let document = try Self.svg(
            "<bitmap \(Self.android) android:src=\"@drawable/logo\" android:gravity=\"center\" />", lookup: lookup)
        #expect(
            document.contains(
                ##"<image x="53" y="53.5" width="2" height="1" preserveAspectRatio="none" xlink:href="data:image/png;base64,iVBORw0KGgo"##
            ),
            "\(document)")
        let filled = try Self.svg(
            "<layer-list \(Self.android)><item android:drawable=\"@drawable/logo\"/></layer-list>", lookup: lookup)
        #expect(filled.contains(##"<image x="0" y="0" width="108" height="108""##), "\(filled)")
        // Bytes that are neither XML nor an image.
        let other = Self.problem(
            "<layer-list \(Self.android)><item android:drawable=\"@drawable/logo\"/></layer-list>",
            lookup: Self.lookup(files: ["drawable/logo": [0x89, 1, 2, 3]]))
        #expect(other?.reason == "is neither XML nor an image (PNG, WebP, JPEG or GIF)", "\(String(describing: other))")
    }

    /// What is not drawn is refused, naming it with its line.
    @Test func unknownElementsAndAttributesAreRefusedWithTheirLine() {
        var problem = Self.problem(Self.vector("<path android:pathData=\"M0 0\" />\n<text />"))
        #expect(problem?.line == 4, "\(String(describing: problem))")
        #expect(problem?.reason.hasPrefix("<text> is not a VectorDrawable element iconbadge draws") == true)
        problem = Self.problem(Self.vector("<path android:pathData=\"M0 0\"\n android:fillColour=\"#fff\" />"))
        #expect(problem?.line == 3)
        #expect(
            problem?.reason.hasPrefix("<path> has the attribute android:fillColour, which iconbadge does not draw")
                == true,
            "\(String(describing: problem))")
        // tools: attributes are for Android Studio: ignored.
        #expect(
            Self.problem(
                "<vector \(Self.android) xmlns:tools=\"http://schemas.android.com/tools\" tools:ignore=\"VectorRaster\" android:width=\"1dp\" android:height=\"1dp\" android:viewportWidth=\"1\" android:viewportHeight=\"1\"/>"
            ) == nil)
        problem = Self.problem(
            Self.vector("<path android:pathData=\"M0 0h1\" android:fillColor=\"?attr/colorPrimary\" />"))
        #expect(problem?.reason.hasPrefix("android:fillColor is the theme attribute ?attr/colorPrimary") == true)
        problem = Self.problem(Self.vector("<path android:pathData=\"M0 0h1\" android:fillColor=\"@color/missing\" />"))
        #expect(
            problem?.reason
                == "android:fillColor: @color/missing is not defined in res/values*/ (the default configuration) or res/color*/"
        )
        problem = Self.problem("<animated-vector \(Self.android) android:drawable=\"@drawable/x\" />")
        #expect(problem?.reason.hasPrefix("<animated-vector> is not a drawable iconbadge draws") == true)
        problem = Self.problem(Self.vector("<path android:pathData=\"M0 0h1\" android:trimPathEnd=\"0.5\" />"))
        #expect(problem?.reason.hasPrefix("android:trimPathEnd trims the path") == true)
        problem = Self.problem(Self.vector("<path android:pathData=\"M0 0 Q1\" />"))
        #expect(
            problem?.reason == "android:pathData has a number without digits (at character 8)",
            "\(String(describing: problem))")
    }

    /// Hostile drawables meet the limits: viewport, elements, references, size.
    @Test func limitsHold() {
        #expect(Self.problem(Self.vector("", viewport: "0"))?.reason.contains("must be over 0") == true)
        #expect(
            Self.problem(Self.vector("", viewport: "1e9"))?.reason.contains("must be over 0 and at most 100000") == true
        )
        #expect(Self.problem(Self.vector("", viewport: "nan"))?.reason.contains("not a number") == true)
        let many = String(repeating: "<path android:pathData=\"M0 0\"/>", count: AndroidDrawableSVG.maxElements)
        #expect(Self.problem(Self.vector(many))?.reason.contains("over 20000 elements") == true)
        // A layer list that names itself.
        let loop = "<layer-list \(Self.android)><item android:drawable=\"@drawable/loop\"/></layer-list>"
        let looping = Self.problem(loop, lookup: Self.lookup(files: ["drawable/loop": Array(loop.utf8)]))
        #expect(looping?.reason.contains("refers to itself") == true, "\(String(describing: looping))")
        // A colour chain that loops.
        let colours = Self.problem(
            Self.vector("<path android:pathData=\"M0 0h1\" android:fillColor=\"@color/a\" />"),
            lookup: Self.lookup(values: ["color/a": "@color/b", "color/b": "@color/a"]))
        #expect(colours?.reason.contains("refers to itself") == true, "\(String(describing: colours))")
        var small = ImageLimits()
        small.maxSVGBytes = 300
        let big = Self.vector(
            String(repeating: "<path android:pathData=\"M0 0h20v20\" android:fillColor=\"#fff\"/>\n", count: 20))
        #expect(Self.problem(big, limits: small)?.reason.contains("over the 300-byte limit for an SVG") == true)
    }

    @Test func pathDataIsReadAndWrittenAgain() throws {
        #expect(try AndroidPathData.svg("M1.5.5l-1-2z") == "M 1.5 0.5 l -1 -2 z")
        #expect(try AndroidPathData.svg("a1,1 0 0110,10") == "M 0 0 a 1 1 0 0 1 10 10")
        #expect(try AndroidPathData.svg("M 1e2,-.5E1 L 3. 4") == "M 100 -5 L 3 4")
        #expect(try AndroidPathData.svg("  ") == "")
        #expect(try AndroidPathData.svg("M0 0 1 1 2 2") == "M 0 0 1 1 2 2")
        #expect(try AndroidPathData.svg("M0 0h1.2959057E-4") == "M 0 0 h 0.00012959057")
        for (bad, reason) in [
            ("M0 0 \"/><script", "has '\"' where a command or number goes"),
            ("M0 0 L 1", "has a number without digits"),
            ("M 0 0 a 1 1 0 2 0 1 1", "has an arc flag that is not 0 or 1"),
            ("M 1e10 0", "has a number over 1000000000 in magnitude"),
            ("Z 1", "has '1' where a command or number goes"),
            ("X", "does not start with a command (M, L, C, …)"),
        ] {
            #expect(throws: AndroidPathData.Problem.self) { try AndroidPathData.svg(bad) }
            do {
                _ = try AndroidPathData.svg(bad)
            } catch {
                #expect(error.reason == reason, "\(bad): \(error.reason)")
            }
        }
        #expect(throws: AndroidPathData.Problem.self) {
            try AndroidPathData.svg("M" + String(repeating: "0 ", count: AndroidPathData.maxBytes))
        }
    }

    @Test func colorsAndReferencesParseAsAndroidWritesThem() {
        #expect(AndroidColor.parse("#F00") == Color(red: 255, green: 0, blue: 0))
        #expect(AndroidColor.parse("#8F00") == Color(red: 255, green: 0, blue: 0, alpha: 0x88))
        #expect(AndroidColor.parse("#123456") == Color(red: 0x12, green: 0x34, blue: 0x56))
        #expect(AndroidColor.parse("#80123456") == Color(red: 0x12, green: 0x34, blue: 0x56, alpha: 0x80))
        #expect(
            AndroidColor.parse("#12345") == nil && AndroidColor.parse("red") == nil && AndroidColor.parse("#GGG") == nil
        )
        #expect(AndroidReference("@color/brand") == AndroidReference(type: "color", name: "brand"))
        #expect(
            AndroidReference("@android:color/white") == AndroidReference(framework: true, type: "color", name: "white"))
        #expect(AndroidReference("@+id/x")?.type == "id")
        #expect(
            AndroidReference("@color/") == nil && AndroidReference("@color/a b") == nil
                && AndroidReference("#fff") == nil)
    }
}
