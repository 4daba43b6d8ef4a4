// swift-tools-version:6.0
import PackageDescription

// FreeType's headers sit in a folder of their own, which its pkg-config entry would name;
// but a pkg-config entry also puts -lfreetype on the link line, ahead of the static
// copy, and the binary would load the shared library (see BadgeRender below). The
// folder is named here instead: Debian's, then Homebrew's (macOS, untested).
let freetypeHeaders = ["/usr/include/freetype2", "/opt/homebrew/include/freetype2", "/usr/local/include/freetype2"]
let freetypeC: [CSetting] = [.unsafeFlags(freetypeHeaders.map { "-I" + $0 })]
let freetypeSwift: [SwiftSetting] = [.unsafeFlags(freetypeHeaders.flatMap { ["-Xcc", "-I" + $0] })]

// libgcc's unwinder linked in (-static-libgcc), except in a sanitizer build (make
// test-tsan, test-asan set ICONBADGE_SANITIZER): SwiftPM links the executable's objects
// and linker flags into the test binary too, whose libdispatch unwinds through
// libgcc_s.so.1, and two unwinders in one process abort ThreadSanitizer's run at its
// first pthread_exit (_Unwind_SetGR from the static copy on libgcc_s's context).
let staticLibgcc: [String] =
    Context.environment["ICONBADGE_SANITIZER"] == nil ? ["-Xclang-linker", "-static-libgcc"] : []

let package = Package(
    name: "iconbadge",
    products: [
        .executable(name: "iconbadge", targets: ["iconbadge"])
    ],
    targets: [
        // C libraries (see `make deps`, which installs their -dev packages). None has a
        // pkg-config entry and none links itself: BadgeRender links them all through
        // -liconbadge-render (below), so that no -lpng16 loads a shared library beside
        // the static copy. Their headers are found by folder. (macOS, untested:
        // Homebrew's include and lib folders must then be on CPATH and LIBRARY_PATH.)
        .systemLibrary(name: "CCairo"),
        .systemLibrary(name: "CFreeType"),
        .systemLibrary(name: "CHarfBuzz"),
        .systemLibrary(name: "CFontconfig"),
        .systemLibrary(name: "CLibPng"),
        .systemLibrary(name: "CFriBidi"),
        // libwebp: WebP icons in, lossless WebP out (Android launcher icons are often WebP).
        .systemLibrary(name: "CWebP"),
        // LittleCMS: a badge's sRGB colours into an icon's embedded colour profile.
        .systemLibrary(name: "CLittleCMS"),
        // FriBidi glue: its macros do not import into Swift.
        .target(name: "CBidi", dependencies: ["CFriBidi"]),
        // The isolated children (iconbadge-loader, in loader/, opens librsvg and gdk-pixbuf;
        // see its header), zlib, and the replay of a recorded SVG drawing (Cairo's script
        // interpreter, linked through -liconbadge-render). Nothing here calls dlopen.
        .target(name: "CImageLoaders", dependencies: ["CCairo", "CFreeType"], cSettings: freetypeC),
        // libpng glue: setjmp-based error handling cannot live in Swift. libdeflate
        // (whole-buffer inflate of the image data; Sources/CPngCodec/png_fast.c) is
        // used by the C code alone, so it needs no module map.
        .target(name: "CPngCodec", dependencies: ["CLibPng"]),
        // libjpeg-turbo for the JPEGs it reads cleanly (Sources/CJpegCodec/jpeg_codec.c).
        .target(name: "CJpegCodec"),
        // The default fonts, compiled into the binary (see Sources/CBundledFont/LICENSE).
        .target(
            name: "CBundledFont",
            exclude: ["LICENSE", "DejaVuSans-Bold.ttf", "DejaVuSans.ttf"],
            cSettings: [.headerSearchPath(".")]),

        .target(name: "BadgeCore"),
        // The operating system: reading inputs, writing outputs safely, signals, and
        // the few calls that differ between Linux and macOS (Platform.swift).
        .target(name: "BadgeSystem", dependencies: ["BadgeCore"]),
        // Every C library comes through `-liconbadge-render`: a linker script that `make
        // deps` writes into .build/static-libs to link them statically (a binary that needs
        // only glibc, and a faster start), or a copy of linker/'s, which links the shared
        // libraries (LINKAGE=shared). Without `make deps` the link stops: never a linkage
        // nobody chose. In a dynamic build (debug, tests, LINKAGE=shared) Cairo's,
        // fontconfig's and FreeType's symbols are exported so that librsvg, if opened
        // there, draws with the same Cairo and FreeType (scripts/link-static-libs.sh says
        // why). The release binary is a static executable (scripts/release-build.sh):
        // it loads nothing, so it exports nothing.
        .target(
            name: "BadgeRender",
            dependencies: [
                "BadgeCore", "BadgeSystem", "CCairo", "CFreeType", "CHarfBuzz", "CFontconfig", "CPngCodec",
                "CJpegCodec", "CBundledFont", "CBidi", "CImageLoaders", "CLittleCMS", "CWebP",
            ],
            swiftSettings: freetypeSwift,
            linkerSettings: [
                .unsafeFlags(
                    ["-L\(Context.packageDirectory)/.build/static-libs"], .when(platforms: [.linux])),
                .unsafeFlags(["-Xlinker", "--export-dynamic"], .when(platforms: [.linux], configuration: .debug)),
                .linkedLibrary("iconbadge-render", .when(platforms: [.linux])),
                .linkedLibrary("cairo", .when(platforms: [.macOS])),
                .linkedLibrary("fontconfig", .when(platforms: [.macOS])),
                .linkedLibrary("fribidi", .when(platforms: [.macOS])),
                .linkedLibrary("harfbuzz", .when(platforms: [.macOS])),
                .linkedLibrary("freetype", .when(platforms: [.macOS])),
                .linkedLibrary("png16", .when(platforms: [.macOS])),
                .linkedLibrary("z", .when(platforms: [.macOS])),
                .linkedLibrary("webpmux", .when(platforms: [.macOS])),
                .linkedLibrary("webp", .when(platforms: [.macOS])),
                .linkedLibrary("lcms2", .when(platforms: [.macOS])),
                .linkedLibrary("jpeg", .when(platforms: [.macOS])),
                .linkedLibrary("deflate", .when(platforms: [.macOS])),
            ]),
        // The job pipeline under every command: the option vocabulary, planning (command
        // lines, manifests, catalogs), running, golden checks and reports.
        .target(name: "BadgeJobs", dependencies: ["BadgeCore", "BadgeSystem", "BadgeRender"]),
        .target(name: "BadgeCLI", dependencies: ["BadgeCore", "BadgeSystem", "BadgeRender", "BadgeJobs"]),
        // `make deps` links libstdc++.a (the Swift runtime's C++ library) into
        // .build/static-cxx: found there first, it is linked statically, which saves
        // the dynamic loader about 1,700 symbol bindings at every start (make bench).
        // Without that folder (only with LINKAGE=shared: a static `make deps` stops
        // without it) the link falls back to libstdc++.so. libgcc's unwinder is
        // linked in too (-static-libgcc): no libgcc_s.so.1 to load. The binary links with
        // lld and linker/no-module-hash.ld, which drops the one section that named the
        // build folder (a reproducible build; the script says why).
        .executableTarget(
            name: "iconbadge", dependencies: ["BadgeCLI"],
            linkerSettings: [
                .unsafeFlags(
                    ["-L\(Context.packageDirectory)/.build/static-cxx"] + staticLibgcc + [
                        "-use-ld=lld", "-Xlinker", "-T",
                        "-Xlinker", "\(Context.packageDirectory)/linker/no-module-hash.ld",
                    ], .when(platforms: [.linux])),
                // The release binary exports nothing (linker/exports.map: a static
                // executable is never a library's host; with LINKAGE=shared nothing it
                // loads looks symbols up in it), and packs its relative relocations
                // (DT_RELR): the static-pie start-up code (or, with LINKAGE=shared, the
                // dynamic loader) reads 8 KB of them instead of 844 KB.
                .unsafeFlags(
                    [
                        "-Xlinker", "--version-script=\(Context.packageDirectory)/linker/exports.map",
                        "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                    ], .when(platforms: [.linux], configuration: .release)),
            ]),

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
        .executableTarget(
            name: "FuzzVectorDrawable", dependencies: ["BadgeCore", "BadgeRender", "FuzzSupport"]),
        .executableTarget(name: "FuzzAndroidResources", dependencies: ["BadgeCore", "BadgeJobs", "FuzzSupport"]),
        .executableTarget(name: "FuzzResults", dependencies: ["BadgeCLI", "BadgeCore", "FuzzSupport"]),

        // Helpers shared by the test targets: paths, the built binary, golden checks.
        .target(
            name: "TestSupport", dependencies: ["BadgeCore", "BadgeSystem", "BadgeRender"], path: "Tests/TestSupport"),
        .testTarget(name: "BadgeSystemTests", dependencies: ["BadgeSystem", "BadgeCore", "TestSupport"]),
        .testTarget(name: "BadgeCoreTests", dependencies: ["BadgeCore", "TestSupport"]),
        .testTarget(
            name: "BadgeRenderTests",
            dependencies: ["BadgeRender", "BadgeCore", "BadgeJobs", "BadgeCLI", "TestSupport", "CCairo"]),
        .testTarget(
            name: "BadgeCLITests", dependencies: ["BadgeCLI", "BadgeJobs", "BadgeCore", "BadgeSystem", "TestSupport"]),
        .testTarget(name: "BadgeJobsTests", dependencies: ["BadgeJobs", "BadgeCore", "BadgeSystem", "TestSupport"]),
        .testTarget(
            name: "iconbadgeTests",
            dependencies: ["BadgeCore", "BadgeSystem", "BadgeRender", "BadgeJobs", "TestSupport", "iconbadge"]),
    ],
    swiftLanguageModes: [.v6]
)
