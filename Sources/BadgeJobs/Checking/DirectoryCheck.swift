import BadgeCore
import BadgeRender
import BadgeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `iconbadge compare ACTUAL_DIR EXPECTED_DIR`: pairs the images of two folders by
/// relative path and classifies each as passed, changed, new (actual only), deleted
/// (expected only) or error, as reg-cli does; the pairs are compared in parallel with
/// the same comparison as `compare`.
///
/// Both folders may come from a pull request: links inside them are skipped (with a
/// note), never followed; the walk is bounded in depth and count; goldens written by
/// an update and artifacts never go through a link (`OutputFile`).
package enum DirectoryCheck {
    /// File name extensions of the images paired (lower case): every format iconbadge
    /// reads. Other files are not images and are left out.
    package static let imageExtensions = [
        "png", "svg", "svgz", "webp", "jpg", "jpeg", "gif", "bmp", "tif", "tiff", "ico",
    ]
    /// The most images one folder may hold: memory for the listing stays small.
    package static let maxImages = 100_000
    /// The deepest folder walked below a root.
    package static let maxDepth = 32

    /// How a directory check runs.
    package struct Settings: Sendable {
        /// How each pair is compared.
        package var compare = CompareSettings()
        /// Statuses besides `changed` (which always fails) that fail the check.
        package var failOn: [CheckEntry.Status] = [.new, .deleted]
        /// Which goldens may be written: `missing` copies new images into the expected
        /// folder, `changed` copies failing ones over their goldens. A deleted image's
        /// golden is never removed.
        package var update = UpdateMode.none
        /// Threads comparing pairs.
        package var workers = 1
        /// Limits for every image decoded: the command's (`--max-side`, `--max-pixels`).
        package var limits: ImageLimits
        /// Where `REL.actual.png` and `REL.diff.png` of changed pairs go
        /// (`sub/icon.png.diff.png`), nil for none.
        package var artifacts: String?
        /// The HTML report's assets folder, staged, nil without a report.
        package var assets: StagedFolder?
        /// The comparison's mask, decoded once for every pair (`run` fills it).
        package var decodedMask: PixelBuffer?
        /// How an image's error reads in its entry: the command line words a render
        /// problem with the options that change it (`BadgeError.message` names none).
        package var errorMessage: @Sendable (BadgeError) -> String = { $0.message }
        /// The part of the images this run checks (`--shard K/N`), nil for all.
        package var shard: Shard?

        /// The defaults (exact comparison, failing on new and deleted images), every
        /// image read within `limits`.
        package init(limits: ImageLimits) { self.limits = limits }
    }

    /// What a folder holds.
    package struct Listing: Sendable {
        /// Image paths relative to the folder, `/`-separated, sorted.
        package var images: [String] = []
        /// Links found (relative paths), skipped.
        package var links: [String] = []
        /// Names that are not valid UTF-8 (relative paths, the bad bytes shown as
        /// U+FFFD): they cannot be paired or reported faithfully, so each is an error.
        package var badNames: [String] = []
        /// Entries that could not be read (a folder without permission, a path over
        /// the system's length limit), with the reason: each is an error, never skipped.
        package var unreadable: [(path: String, reason: String)] = []
    }

    /// Lists the images below `root`: files with an image extension, in folders that
    /// are not hidden (`.git`, `.iconbadge-…` staging folders), not links, and not one
    /// of `excluded` (the other root, the artifacts folder, the report's assets).
    ///
    /// - Throws: 66 when `root` is not a folder; 65 over `maxImages` images or
    ///   `maxDepth` folders deep.
    package static func images(in root: String, excluding excluded: [String]) throws(BadgeError) -> Listing {
        var info = stat()
        guard stat(root, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw .missingInput(path: root, reason: "is not a folder")
        }
        let skip = excluded.compactMap(identity)
        var listing = Listing()
        var pending: [(path: String, relative: String, depth: Int)] = [(root, "", 0)]
        while let (folder, relative, depth) = pending.popLast() {
            if let here = identity(folder), skip.contains(where: { $0 == here }), depth > 0 { continue }
            let listed: [(String, Bool, Bool, Bool)]
            switch entries(of: folder) {
            case .success(let found): listed = found
            case .failure(let reason):
                guard depth > 0 else { throw .missingInput(path: root, reason: "cannot be read: \(reason)") }
                listing.unreadable.append((relative, "the folder cannot be read: \(reason)"))
                continue
            }
            for (name, isFolder, isLink, valid) in listed where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : relative + "/" + name
                if !valid {
                    listing.badNames.append(child)
                } else if isLink {
                    listing.links.append(child)
                } else if isFolder {
                    guard depth < maxDepth else {
                        throw .badInput(
                            path: root + "/" + child,
                            reason: "is more than \(maxDepth) folders deep; compare a folder nearer the images")
                    }
                    pending.append((folder + "/" + name, child, depth + 1))
                } else if let dot = name.lastIndex(of: "."),
                    imageExtensions.contains(name[name.index(after: dot)...].lowercased())
                {
                    listing.images.append(child)
                    guard listing.images.count <= maxImages else {
                        throw .badInput(
                            path: root, reason: "holds more than \(maxImages) images; compare smaller folders")
                    }
                }
            }
        }
        listing.images.sort()
        listing.links.sort()
        listing.badNames.sort()
        listing.unreadable.sort { $0.path < $1.path }
        return listing
    }

    /// The entries of `folder` (name, is a folder, is a link, name is valid UTF-8),
    /// without `.` and `..`, or why they cannot be read (the folder or one entry). A
    /// name that is not UTF-8 is kept (with U+FFFD for its bad bytes) so that it is
    /// reported, not lost.
    static func entries(of folder: String) -> FolderListing {
        guard let stream = opendir(folder) else { return .failure(SystemError.text(errno)) }
        defer { closedir(stream) }
        var list: [(String, Bool, Bool, Bool)] = []
        while let entry = readdir(stream) {
            let raw = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
            guard let name = String(validating: raw, as: UTF8.self) else {
                list.append((String(decoding: raw, as: UTF8.self), false, false, false))
                continue
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0 else {
                return .failure("\(Quoted(name)): \(SystemError.text(errno))")
            }
            let type = info.st_mode & S_IFMT
            list.append((name, type == S_IFDIR, type == S_IFLNK, true))
        }
        return .success(list.sorted { $0.0 < $1.0 })
    }

    /// A folder's entries (name, is a folder, is a link, name is valid UTF-8), or why
    /// they cannot be read. (Not `Result`: its `Error` conformance of the reason text.)
    enum FolderListing {
        case success([(String, Bool, Bool, Bool)])
        case failure(String)
    }

    /// A folder's device and inode, or nil when it cannot be read.
    private static func identity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// What a directory check found.
    package struct Outcome: Sendable {
        /// The entries of this run (of its shard), in path order, each with its
        /// `index` in the whole run's list.
        package var entries: [CheckEntry]
        /// Links found in either folder (skipped), as `ROOT/REL`.
        package var links: [String]
        /// The items of the whole run (every shard's): images, unreadable folders and
        /// names that are not UTF-8.
        package var total: Int
        /// The images in both folders, in the whole run: with none, the run compares
        /// nothing.
        package var paired: Int
    }

    /// Compares every image of `actual` with its namesake in `expected` (those of
    /// `settings.shard` only, when given), in parallel. Entries come back sorted by path.
    ///
    /// - Throws: as `images(in:excluding:)`; 64 when both are one folder; 66 when
    ///   neither holds an image (nothing would be compared). A pair's own failures
    ///   (unreadable, corrupt, over a limit, a golden that cannot be written) are
    ///   `error` entries, not throws.
    package static func run(
        actual: String, expected: String, settings: Settings, excluding: [String] = []
    ) throws(BadgeError) -> Outcome {
        if let a = identity(actual), let b = identity(expected), a == b {
            throw .usage(
                "compare \(Quoted(actual)) \(Quoted(expected)): both are one folder, so every image would pass; give the folder of fresh renders and the goldens' folder"
            )
        }
        if PathContainment.isInside(actual, expected) || PathContainment.isInside(expected, actual) {
            throw .usage(
                "compare \(Quoted(actual)) \(Quoted(expected)): one folder is inside the other, so its images would be walked twice and an update could write goldens among the renders; give two separate folders"
            )
        }
        var decoded = settings
        decoded.decodedMask = try settings.compare.decodeMask(limits: settings.limits)
        let settings = decoded
        let actualList = try images(in: actual, excluding: [expected] + excluding)
        // A goldens folder that does not exist yet holds no image (an update makes it).
        let expectedList =
            !InputFile.exists(expected) && settings.update.createsMissing
            ? Listing() : try images(in: expected, excluding: [actual] + excluding)
        guard !actualList.images.isEmpty || !expectedList.images.isEmpty else {
            throw .missingInput(
                path: actual,
                reason:
                    "holds no image, nor does \(Quoted(expected)): nothing to compare (images are \(imageExtensions.joined(separator: ", ")) files)"
            )
        }
        let inActual = Set(actualList.images)
        let inExpected = Set(expectedList.images)
        // Every item of the whole run, in path order: its position is its index in
        // every shard, so that shards' reports merge into the whole run's.
        var items: [(path: String, problem: CheckEntry?)] = inActual.union(inExpected).map { ($0, nil) }
        var reported = Set<String>()
        for (root, list) in [(actual, actualList), (expected, expectedList)] {
            for (path, reason) in list.unreadable where reported.insert(path).inserted {
                let shown = path.isEmpty ? "." : path
                items.append(
                    (
                        shown,
                        CheckEntry(
                            path: shown, status: .error, report: nil,
                            message: "\(Quoted(root + "/" + path)): \(reason)", errorCode: .noInput)
                    ))
            }
            for path in list.badNames where reported.insert(path).inserted {
                items.append(
                    (
                        path,
                        CheckEntry(
                            path: path, status: .error, report: nil,
                            message:
                                "\(Quoted(root + "/" + path)): the name is not valid UTF-8, so it cannot be paired or reported; rename it",
                            errorCode: .dataError)
                    ))
            }
        }
        items.sort { $0.path < $1.path }
        let sorted = items
        let chosen = sorted.indices.filter { settings.shard?.contains(items[$0].path) ?? true }
        let entries = ParallelMap.map(count: chosen.count, workers: settings.workers) { position in
            let index = chosen[position]
            let item = sorted[index]
            var made =
                item.problem
                ?? entry(
                    item.path, index: index, actualRoot: actual, expectedRoot: expected,
                    inActual: inActual.contains(item.path), inExpected: inExpected.contains(item.path),
                    settings: settings)
            made.index = index
            return made
        }
        let links =
            actualList.links.map { actual + "/" + $0 } + expectedList.links.map { expected + "/" + $0 }
        return Outcome(
            entries: entries, links: links, total: items.count, paired: inActual.intersection(inExpected).count)
    }

    /// One pair's entry; every failure becomes an `error` entry.
    private static func entry(
        _ path: String, index: Int, actualRoot: String, expectedRoot: String, inActual: Bool, inExpected: Bool,
        settings: Settings
    ) -> CheckEntry {
        let components = path.split(separator: "/").map(String.init)
        let golden = OutputLocation(root: expectedRoot, components: components)
        do throws(BadgeError) {
            if !inExpected {
                let bytes = try InputFile.bytes(
                    at: actualRoot + "/" + path, limit: settings.limits.maxRasterBytes, what: "image file")
                var entry = CheckEntry(
                    path: path, status: .new, report: nil,
                    message: "only in \(Shown(actualRoot)), no golden in \(Shown(expectedRoot))")
                // Decoded even without a report when it may become a golden: a file
                // that is no image (or over a limit) must not be committed as one.
                if settings.assets != nil || settings.update.createsMissing {
                    let png = try Comparer.png(
                        of: bytes, path: actualRoot + "/" + path, limits: settings.limits,
                        keepTransparentColor: settings.compare.storedColor)
                    if let assets = settings.assets {
                        entry.assets.actual = try writeAsset(png, index: index, role: .actual, into: assets)
                    }
                }
                if settings.update.createsMissing {
                    // `missing` never replaces a file, whatever the walk saw.
                    guard !InputFile.exists(expectedRoot + "/" + path) else {
                        throw .cannotCreate(
                            path: expectedRoot + "/" + path,
                            reason: "exists but was not compared; --update missing never replaces a golden")
                    }
                    try OutputFile.write(bytes, to: golden, creatingFolders: true)
                    entry.goldenWritten = "missing"
                    entry.message = "golden created from \(Shown(actualRoot + "/" + path))"
                }
                return entry
            }
            if !inActual {
                var entry = CheckEntry(
                    path: path, status: .deleted, report: nil,
                    message: "only in \(Shown(expectedRoot)), not produced in \(Shown(actualRoot))")
                if let assets = settings.assets {
                    let bytes = try InputFile.bytes(
                        at: expectedRoot + "/" + path, limit: settings.limits.maxRasterBytes, what: "image file")
                    let png = try Comparer.png(
                        of: bytes, path: expectedRoot + "/" + path, limits: settings.limits,
                        keepTransparentColor: false)
                    entry.assets.expected = try writeAsset(png, index: index, role: .expected, into: assets)
                }
                return entry
            }
            let bytes = try InputFile.bytes(
                at: actualRoot + "/" + path, limit: settings.limits.maxRasterBytes, what: "image file")
            let expectedBytes = try InputFile.bytes(
                at: expectedRoot + "/" + path, limit: settings.limits.maxRasterBytes, what: "image file")
            var images = Comparer.Images()
            if settings.artifacts != nil {
                images.actual = .ifChanged
                images.diff = .ifChanged
            }
            if settings.assets != nil {
                images.actual = .always
                images.expected = .always
                images.diff = .ifChanged
            }
            let compared = try Comparer.compareFiles(
                actual: bytes, actualPath: actualRoot + "/" + path, expected: expectedBytes,
                expectedPath: expectedRoot + "/" + path, settings: settings.compare, counting: true, images: images,
                limits: settings.limits, decodedMask: settings.decodedMask, alwaysStream: true)
            let equal = compared.report.equal
            var entry = CheckEntry(
                path: path, status: equal ? .passed : .changed, report: compared.report,
                message: compared.report.detail)
            if let artifacts = settings.artifacts {
                // The whole name: icon.png and icon.webp each get their own.
                let actualArtifact = artifactLocation(artifacts, components, ".actual.png")
                let diffArtifact = artifactLocation(artifacts, components, ".diff.png")
                if !equal, let png = compared.actual {
                    try OutputFile.write(png, to: actualArtifact, creatingFolders: true)
                    entry.artifacts.append(actualArtifact.description)
                } else {
                    try OutputFile.removeIfPresent(actualArtifact)
                }
                if !equal, let png = compared.diff {
                    try OutputFile.write(png, to: diffArtifact, creatingFolders: true)
                    entry.report?.diffPath = diffArtifact.description
                    entry.artifacts.append(diffArtifact.description)
                } else {
                    try OutputFile.removeIfPresent(diffArtifact)
                }
            }
            if let assets = settings.assets {
                if let png = compared.actual {
                    entry.assets.actual = try writeAsset(png, index: index, role: .actual, into: assets)
                }
                entry.assets.expected =
                    compared.expectedIsActual
                    ? entry.assets.actual
                    : try compared.expected.map { (png) throws(BadgeError) in
                        try writeAsset(png, index: index, role: .expected, into: assets)
                    }
                if !equal, let png = compared.diff {
                    entry.assets.diff = try writeAsset(png, index: index, role: .diff, into: assets)
                }
            }
            if !equal, settings.update.rewritesChanged {
                try OutputFile.write(bytes, to: golden, creatingFolders: true)
                entry.goldenWritten = "changed"
                entry.message = "golden updated: " + compared.report.detail
            }
            return entry
        } catch {
            return CheckEntry(
                path: path, status: .error, report: nil, message: settings.errorMessage(error),
                errorCode: error.exitCode)
        }
    }

    /// Where a changed image's artifact goes: `ARTIFACTS/REL` + `suffix` (`.actual.png`,
    /// `.diff.png`), REL the image's whole relative path (`sub/icon.png.diff.png`), as
    /// `batch --check` names them too.
    static func artifactLocation(_ artifacts: String, _ components: [String], _ suffix: String) -> OutputLocation {
        OutputLocation(root: artifacts, components: components.dropLast() + [(components.last ?? "image") + suffix])
    }

    /// Writes the PNG `bytes` as the asset of entry `index` in `role`; returns its name.
    private static func writeAsset(
        _ bytes: [UInt8], index: Int, role: HTMLReport.AssetRole, into assets: StagedFolder
    )
        throws(BadgeError) -> String
    {
        try ReportAssets(folder: assets, index: index).write(png: bytes, role: role)
    }
}
