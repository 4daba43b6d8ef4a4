import BadgeCore
import BadgeRender
import BadgeSystem

/// `merge-reports`: the results of a run's shards (`--results`) joined into the whole
/// run's, as if it had not been split: the same entries in the same order, the same
/// exit code, one JUnit file and one HTML page. The output never depends on the order
/// the files are given in: shards are taken by number, entries by their index in the
/// whole run.
package enum ReportMerge {
    /// The whole run, merged.
    package struct Merged: Sendable {
        /// The command the shards ran.
        package var command: RunResults.Command
        /// The HTML report's title.
        package var title: String
        /// Statuses besides `changed` that fail.
        package var failOn: [CheckEntry.Status]
        /// How many parts the run was split into (1: a whole run's results).
        package var shards: Int
        /// Every entry of the run, by index; their `assets` are paths relative to
        /// `folders[i]` (until `copyImages` makes them the merged report's names).
        package var entries: [CheckEntry]
        /// The folder of the results file each entry came from.
        package var folders: [String]

        /// The exit code the unsplit run had: a directory check's (the first error's
        /// code, else 1 when something fails, else 0; 66 when nothing was compared), or
        /// a checked batch's (the first failed job's code, else 1 when a golden differs).
        package var exitCode: ExitCode {
            if let error = entries.first(where: { $0.status == .error }) {
                // Never 0 or 1 when an error is printed (the reader maps those to 65 too).
                guard let code = error.errorCode, code != .success, code != .different else { return .dataError }
                return code
            }
            if command == .compare,
                !entries.contains(where: { $0.status == .passed || $0.status == .changed || $0.goldenWritten != nil })
            {
                return .noInput
            }
            return entries.contains { $0.fails(failOn: failOn) } ? .different : .success
        }
    }

    /// Joins `inputs` (each results file's path and contents).
    ///
    /// - Throws: 65 naming both files when two come from different commands, runs or
    ///   splits (another N), or hold results for one item (or one shard) twice; 66
    ///   naming the shards whose results are missing; 65 when the shards' items do not
    ///   add up to the run's.
    package static func merge(_ inputs: [(path: String, results: RunResults)]) throws(BadgeError) -> Merged {
        precondition(!inputs.isEmpty, "merge needs results")
        // By shard, then path: the same order (and the same messages) whatever the
        // order given.
        let sorted = inputs.sorted {
            ($0.results.shard?.index ?? 1, $0.path) < ($1.results.shard?.index ?? 1, $1.path)
        }
        let first = sorted[0]
        let count = first.results.shard?.count ?? 1
        for other in sorted.dropFirst() {
            let results = other.results
            func differ(_ what: String) -> BadgeError {
                .badInput(
                    path: other.path,
                    reason:
                        "comes from another run than \(Quoted(first.path)) (\(what)); merge the shards of one run")
            }
            if results.command != first.results.command {
                throw differ("\(first.results.command.rawValue) and \(results.command.rawValue)")
            }
            if (results.shard?.count ?? 1) != count {
                throw .badInput(
                    path: other.path,
                    reason:
                        "holds shard \(results.shard?.description ?? "1/1"), and \(Quoted(first.path)) shard \(first.results.shard?.description ?? "1/1"): a run split into \(count) parts cannot merge with one split into \(results.shard?.count ?? 1); merge the shards of one run"
                )
            }
            if results.run != first.results.run {
                throw differ("their folders, manifest or comparison settings differ")
            }
            if results.total != first.results.total {
                throw differ("\(first.results.total) and \(results.total) items in all")
            }
        }
        var byShard: [Int: String] = [:]
        for input in sorted {
            let index = input.results.shard?.index ?? 1
            if let earlier = byShard[index] {
                throw .badInput(
                    path: input.path,
                    reason: "holds shard \(index)/\(count)'s results, as does \(Quoted(earlier)); give each shard once")
            }
            byShard[index] = input.path
        }
        let missing = (1...count).filter { byShard[$0] == nil }
        if !missing.isEmpty {
            let names = missing.prefix(5).map { "\($0)/\(count)" }.joined(separator: ", ")
            throw .missingInput(
                path: first.path,
                reason:
                    "holds shard \(first.results.shard?.description ?? "1/1"), and the results of shard\(missing.count == 1 ? "" : "s") \(names)\(missing.count > 5 ? ", …" : "") are missing; give every shard's results file"
            )
        }
        var owner: [Int: (path: String, item: String)] = [:]
        var entries: [(entry: CheckEntry, folder: String)] = []
        for input in sorted {
            let folder = LexicalPath(input.path).folder.description
            for entry in input.results.entries {
                if let earlier = owner[entry.index] {
                    throw .badInput(
                        path: input.path,
                        reason:
                            "holds results for item \(entry.index + 1) (\(Quoted(entry.path))), as does \(Quoted(earlier.path)); give each shard once"
                    )
                }
                owner[entry.index] = (input.path, entry.path)
                // A shard's artifacts are its run's files, written there (and after an
                // artifact download, found elsewhere): the merge did not write them, so
                // its lines and JUnit output do not say "wrote" them.
                var copy = entry
                copy.artifacts = []
                entries.append((copy, folder))
            }
        }
        // A run that held nothing: the unsplit check exited 66 with one line and wrote
        // nothing, and so does the merge (before any report is made).
        guard first.results.total > 0 else {
            throw .missingInput(
                path: first.path,
                reason:
                    "holds the results of a run with no items (\"total\": 0): nothing was compared, so there is nothing to merge; check the folders or manifest the shards ran on"
            )
        }
        guard entries.count == first.results.total else {
            throw .badInput(
                path: first.path,
                reason:
                    "says the run has \(first.results.total) items, and the shards hold \(entries.count); merge the results of one run, as written"
            )
        }
        entries.sort { $0.entry.index < $1.entry.index }
        return Merged(
            command: first.results.command, title: first.results.title, failOn: first.results.failOn, shards: count,
            entries: entries.map(\.entry), folders: entries.map(\.folder))
    }

    /// The largest image a merge copies (bytes): a PNG of 8192² noise is about 200 MiB.
    package static let maxImageBytes = 512 << 20

    /// The most image bytes one merge copies into its report's assets, all images
    /// together (each file once, however many items name it): 2 GiB, ten 8192² noise
    /// images; a results file cannot make a merge fill the runner's disk (issue 44).
    package static let maxCopiedBytes = 2 << 30

    /// Copies every entry's images (PNGs below its results file's folder, never through
    /// a link) into `assets`, named as the unsplit run named them (its index and role),
    /// and points the entries at them. Each file is copied once for the whole run,
    /// known by its identity (device and inode, so two paths or a hard link to one file
    /// are one copy), streamed 64 KiB at a time, never read whole. An image that is
    /// missing, over `maxImageBytes`, or not a PNG (`PNGChunkStream`'s framing) leaves its
    /// entry marked `imagesMissing` (the report says "artifacts missing"); the merge
    /// goes on. Returns the bytes copied.
    ///
    /// - Parameters:
    ///   - limits: the command's limits (`--max-side`, `--max-pixels`), which each
    ///     image's size in its PNG header must be within.
    ///   - budget: the most bytes copied in all (`maxCopiedBytes`).
    /// - Throws: 65 naming the results file when an image's path is absolute or leaves
    ///   its folder (`..`); 65 naming the image when its header's size is over `limits`;
    ///   65 when the images copied would pass `budget`; 73/74 when an asset cannot be
    ///   written.
    @discardableResult
    package static func copyImages(
        _ merged: inout Merged, into assets: StagedFolder?, limits: ImageLimits, budget: Int = maxCopiedBytes
    ) throws(BadgeError) -> Int {
        var copiedBytes = 0
        // Every file copied so far, by identity: its asset's name.
        var copiedFiles: [FileIdentity.Key: String] = [:]
        for position in merged.entries.indices {
            var entry = merged.entries[position]
            let folder = merged.folders[position]
            var copied = CheckEntry.Assets()
            for role in HTMLReport.AssetRole.allCases {
                let stored: String?
                switch role {
                case .actual: stored = entry.assets.actual
                case .expected: stored = entry.assets.expected
                case .diff: stored = entry.assets.diff
                }
                guard let stored else { continue }
                let path = LexicalPath(stored)
                guard !path.isAbsolute, path.parents == 0, !path.components.isEmpty else {
                    throw .badInput(
                        path: folder,
                        reason:
                            "a results file here names the image \(Quoted(stored)), outside its folder; merge-reports reads images below the results file only"
                    )
                }
                var name: String?
                if let assets {
                    let image: InputFile.Opened
                    do throws(BadgeError) {
                        image = try InputFile.opened(
                            at: OutputLocation(root: folder, components: path.components), what: "image")
                    } catch {
                        entry.imagesMissing = true
                        continue
                    }
                    if let same = copiedFiles[image.identity] {
                        name = same
                    } else {
                        guard image.size <= maxImageBytes, let size = pngSize(image) else {
                            entry.imagesMissing = true
                            continue
                        }
                        do throws(PNGPreflightError) {
                            try PNGPreflight.checkSize(width: size.width, height: size.height, limits: limits)
                        } catch {
                            let shown = folder + "/" + path.components.joined(separator: "/")
                            if case .tooLarge(let limit) = error { throw .overLimit(path: shown, limit) }
                            throw .badInput(path: shown, reason: error.reason)
                        }
                        guard image.size <= budget - copiedBytes else {
                            throw .badInput(
                                path: folder,
                                reason:
                                    "the images its results files name add up to more than \(budget) bytes, the most one merged report copies (each file once); merge fewer shards' images, or merge without --html"
                            )
                        }
                        let asset = HTMLReport.assetName(index: entry.index + 1, role: role)
                        var framing = PNGChunkStream()
                        do throws(BadgeError) {
                            copiedBytes += try assets.copy(
                                from: image, limit: min(maxImageBytes, budget - copiedBytes), name: asset,
                                shown: assets.destination + "/" + asset
                            ) { bytes, atEnd in atEnd ? framing.isComplete : framing.feed(bytes) }
                        } catch {
                            // Not a PNG after all, or it grew: shown as missing, nothing kept.
                            guard case .badInput = error else { throw error }
                            entry.imagesMissing = true
                            continue
                        }
                        copiedFiles[image.identity] = asset
                        name = asset
                    }
                } else {
                    name = stored
                }
                switch role {
                case .actual: copied.actual = name
                case .expected: copied.expected = name
                case .diff: copied.diff = name
                }
            }
            entry.assets = copied
            merged.entries[position] = entry
        }
        return copiedBytes
    }

    /// The size (pixels) of the open file when it starts as a PNG does: the signature,
    /// then an IHDR chunk of 13 bytes with a width and height from 1 to 2³¹ − 1 (RFC
    /// 2083 §11.2.2); nil otherwise. A file of the signature and nothing else (a sparse
    /// file of zeros) is not copied.
    static func pngSize(_ image: borrowing InputFile.Opened) -> (width: Int, height: Int)? {
        let head = image.head(24)
        guard head.count == 24, head.starts(with: PNGPreflight.signature),
            head[8..<16].elementsEqual([0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
        else { return nil }
        func word(_ at: Int) -> UInt32 { head[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        guard (1...0x7FFF_FFFF).contains(word(16)), (1...0x7FFF_FFFF).contains(word(20)) else { return nil }
        return (Int(word(16)), Int(word(20)))
    }
}
