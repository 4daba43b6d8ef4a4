// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "iconbadge",
    products: [
        .executable(name: "iconbadge", targets: ["iconbadge"])
    ],
    targets: [
        // C libraries (see `make deps`). FreeType and libpng come through pkg-config.
        // Cairo, fontconfig, FriBidi and HarfBuzz do not: their headers are included by
        // folder and BadgeRender links them (below), so that no -lcairo loads the shared
        // library beside a static copy. (macOS, untested: Homebrew's include and lib
        // folders must then be on CPATH and LIBRARY_PATH.)
        .systemLibrary(name: "CCairo"),
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]),
        .systemLibrary(name: "CHarfBuzz"),
        .systemLibrary(name: "CFontconfig"),
        .systemLibrary(
            name: "CLibPng", pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(name: "CFriBidi"),
        // libwebp: lossless WebP output (Android launcher icons are often WebP).
        .systemLibrary(
            name: "CWebP", pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        // LittleCMS: a badge's sRGB colours into an icon's embedded colour profile.
        .systemLibrary(
            name: "CLittleCMS", pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]),
        // FriBidi glue: its macros do not import into Swift.
        .target(name: "CBidi", dependencies: ["CFriBidi"]),
        // librsvg and gdk-pixbuf, opened with dlopen on first use (see its header), and zlib.
        .target(
            name: "CImageLoaders", dependencies: ["CCairo", "CFreeType"],
            linkerSettings: [.linkedLibrary("z"), .linkedLibrary("dl")]),
        // libpng glue: setjmp-based error handling cannot live in Swift. libdeflate
        // (whole-buffer inflate of the image data; Sources/CPngCodec/png_fast.c) is
        // used by the C code alone, so it needs no module map.
        .target(
            name: "CPngCodec", dependencies: ["CLibPng"], linkerSettings: [.linkedLibrary("deflate")]),
        // libjpeg-turbo for the JPEGs it reads cleanly (Sources/CJpegCodec/jpeg_codec.c),
        // opened with dlopen on first use: its header at build time, nothing at start.
        .target(name: "CJpegCodec", linkerSettings: [.linkedLibrary("dl")]),
        // The default fonts, compiled into the binary (see Sources/CBundledFont/LICENSE).
        .target(
            name: "CBundledFont",
            exclude: ["LICENSE", "DejaVuSans-Bold.ttf", "DejaVuSans.ttf"],
            cSettings: [.headerSearchPath(".")]),

        .target(name: "BadgeCore"),
        // The operating system: reading inputs, writing outputs safely, signals, and
        // the few calls that differ between Linux and macOS (Platform.swift).
        .target(name: "BadgeSystem", dependencies: ["BadgeCore"]),
        // Cairo, fontconfig, FriBidi and HarfBuzz come through `-liconbadge-render`: a linker script
        // that `make deps` writes into .build/static-libs to link them statically (a
        // faster start), or the one in linker/ that links the shared libraries. Symbols
        // are exported so that librsvg, opened later, draws with the same Cairo
        // (scripts/link-static-libs.sh says why).
        .target(
            name: "BadgeRender",
            dependencies: [
                "BadgeCore", "BadgeSystem", "CCairo", "CFreeType", "CHarfBuzz", "CFontconfig", "CPngCodec",
                "CJpegCodec", "CBundledFont", "CBidi", "CImageLoaders", "CLittleCMS", "CWebP",
            ],
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-L\(Context.packageDirectory)/.build/static-libs", "-L\(Context.packageDirectory)/linker",
                        "-Xlinker", "--export-dynamic",
                    ], .when(platforms: [.linux])),
                .linkedLibrary("iconbadge-render", .when(platforms: [.linux])),
                .linkedLibrary("cairo", .when(platforms: [.macOS])),
                .linkedLibrary("fontconfig", .when(platforms: [.macOS])),
                .linkedLibrary("fribidi", .when(platforms: [.macOS])),
                .linkedLibrary("harfbuzz", .when(platforms: [.macOS])),
            ]),
        // The job pipeline under every command: the option vocabulary, planning (command
        // lines, manifests, catalogs), running, golden checks and reports.
        .target(name: "BadgeJobs", dependencies: ["BadgeCore", "BadgeSystem", "BadgeRender"]),
        .target(name: "BadgeCLI", dependencies: ["BadgeCore", "BadgeSystem", "BadgeRender", "BadgeJobs"]),
        // `make deps` links libstdc++.a (the Swift runtime's C++ library) into
        // .build/static-cxx: found there first, it is linked statically, which saves
        // the dynamic loader about 1,700 symbol bindings at every start (make bench).
        // Without that folder the link falls back to libstdc++.so.
        .executableTarget(
            name: "iconbadge", dependencies: ["BadgeCLI"],
            linkerSettings: [.unsafeFlags(["-L\(Context.packageDirectory)/.build/static-cxx"])]),

        // Fuzz targets (fuzz/README.md): one `LLVMFuzzerTestOneInput` each, built by
        // `make fuzz` with `--sanitize=fuzzer --sanitize=address -Xswiftc -DFUZZING`.
        // In a plain build they are replay tools (`FuzzColor FILE...`); no product names them.
        .target(name: "FuzzSupport"),
        .executableTarget(name: "FuzzArguments", dependencies: ["BadgeCLI", "BadgeCore", "FuzzSupport"]),
        .executableTarget(name: "FuzzColor", dependencies: ["BadgeCore", "FuzzSupport"]),
        .executableTarget(
            name: "FuzzManifest", dependencies: ["BadgeCLI", "BadgeCore", "BadgeJobs", "BadgeSystem", "FuzzSupport"]),
        .executableTarget(name: "FuzzPNG", dependencies: ["BadgeCore", "BadgeRender", "FuzzSupport"]),
        .executableTarget(name: "FuzzSVG", dependencies: ["BadgeCore", "BadgeRender", "FuzzSupport"]),
        .executableTarget(name: "FuzzCompare", dependencies: ["BadgeCore", "BadgeRender", "FuzzSupport"]),
        .executableTarget(name: "FuzzFont", dependencies: ["BadgeCore", "BadgeRender", "FuzzSupport"]),

        // Helpers shared by the test targets: paths, the built binary, golden checks.
        .target(
            name: "TestSupport", dependencies: ["BadgeCore", "BadgeSystem", "BadgeRender"], path: "Tests/TestSupport"),
        .testTarget(name: "BadgeSystemTests", dependencies: ["BadgeSystem", "BadgeCore", "TestSupport"]),
        .testTarget(name: "BadgeCoreTests", dependencies: ["BadgeCore", "TestSupport"]),
        .testTarget(name: "BadgeRenderTests", dependencies: ["BadgeRender", "BadgeCore", "BadgeCLI", "TestSupport"]),
        .testTarget(
            name: "BadgeCLITests", dependencies: ["BadgeCLI", "BadgeJobs", "BadgeCore", "BadgeSystem", "TestSupport"]),
        .testTarget(name: "BadgeJobsTests", dependencies: ["BadgeJobs", "BadgeCore", "BadgeSystem", "TestSupport"]),
        .testTarget(
            name: "iconbadgeTests",
            dependencies: ["BadgeCore", "BadgeSystem", "BadgeRender", "BadgeJobs", "TestSupport", "iconbadge"]),
    ],
    swiftLanguageModes: [.v6]
)
