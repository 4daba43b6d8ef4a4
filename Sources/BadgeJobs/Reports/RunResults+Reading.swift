import BadgeCore

extension RunResults {
    /// The most bytes the results files of one merge may hold together: 64 MiB, about
    /// 100,000 items of 650 bytes (a changed image's item with one region). Read one file
    /// at a time, each item made a `CheckEntry` as it is read (never the whole
    /// document as JSON values), the merge's peak is about twice this plus the
    /// entries and the page (docs/manual/untrusted-input.md).
    package static let maxBytes = 64 << 20

    /// The most JSON values one item may hold: an item has about 70, and its regions
    /// at most `DiffRegions.kept` × 6 more.
    package static let maxItemValues = 1_000

    /// The most JSON values a results file may hold outside its items (its `run`,
    /// `--ignore` rectangles, members a newer iconbadge adds).
    package static let maxOtherValues = 100_000

    /// Reads a results file's bytes, written by `json` (of this schema).
    ///
    /// - Throws: 65 naming `path`: not JSON, not a results file (`compare --json`'s
    ///   report, a geometry report, another program's JSON), a newer schema, or a
    ///   member missing or of the wrong type (naming the item).
    package static func read(_ bytes: [UInt8], path: String) throws(BadgeError) -> RunResults {
        func bad(_ reason: String) -> BadgeError { .badInput(path: path, reason: reason) }
        // Items are made entries as they are read, checked against "total" after.
        var itemReader = Reader(path: path)
        var entries: [CheckEntry] = []
        let document = try JSONParser().parseObject(
            bytes, streaming: "items", maxValues: maxOtherValues, maxElementValues: maxItemValues,
            each: { (item) throws(BadgeError) in
                itemReader.context = "item \(entries.count + 1)"
                entries.append(try itemReader.entry(item))
            },
            syntax: { bad("is not an iconbadge results file (not JSON: \($0.description))") })
        let kind = document["kind"]
        guard kind == .string("results") else {
            if kind == .string("directory") {
                throw bad("is a compare --json report, not a results file; write one with --results PATH")
            }
            if document["canvas"] != nil || document["icon"] != nil {
                throw bad("is a geometry report (--report), not a results file; write one with --results PATH")
            }
            throw bad("is not an iconbadge results file (no \"kind\": \"results\"); write one with --results PATH")
        }
        guard case .number(let schemaNumber) = document["schema"], schemaNumber == schemaNumber.rounded(),
            schemaNumber >= 1
        else { throw bad("is not an iconbadge results file (its \"schema\" is not a number from 1)") }
        guard Int(schemaNumber) <= schema else {
            throw bad(
                "was written by a newer iconbadge (results schema \(Int(schemaNumber)); this one reads schema \(schema)); merge with that version or a newer one"
            )
        }
        var reader = Reader(path: path)
        guard let command = Command(rawValue: try reader.string(document, "command")) else {
            throw bad("names an unknown command (\"command\" must be compare or batch)")
        }
        let title = try reader.string(document, "title")
        guard let run = document["run"], case .object = run else { throw bad("has no \"run\" object") }
        var shard: Shard?
        if let value = document["shard"], value != .null {
            let index = try reader.int(value, "index")
            let count = try reader.int(value, "count")
            guard (1...Shard.maxCount).contains(count), (1...count).contains(index) else {
                throw bad("has a shard \(index)/\(count) that is not one (1 ≤ K ≤ N ≤ \(Shard.maxCount))")
            }
            shard = Shard(index: index, count: count)
        }
        let total = try reader.int(document, "total")
        let failOn = try reader.array(document, "failOn").map { (value) throws(BadgeError) -> CheckEntry.Status in
            guard case .string(let word) = value, let status = CheckEntry.Status(rawValue: word) else {
                throw bad("has a \"failOn\" that is not a list of statuses")
            }
            return status
        }
        let code = try reader.int(document, "exitCode")
        guard let exitCode = ExitCode(rawValue: Int32(clamping: code)) else {
            throw bad("has an \"exitCode\" that is not one of iconbadge's (\(code))")
        }
        _ = try reader.array(document, "items")
        for (position, entry) in entries.enumerated() where entry.index >= total {
            reader.context = "item \(position + 1)"
            throw reader.bad("\"index\" \(entry.index) is not below \"total\" \(total)")
        }
        var results = RunResults(
            command: command, title: title, run: run, shard: shard, total: total, failOn: failOn, exitCode: exitCode,
            entries: entries)
        let artifacts = try reader.value(document, "artifacts")
        results.artifactsFolder = try reader.optionalString(artifacts, "folder")
        results.artifactsFromResults = try reader.optionalString(artifacts, "fromResults")
        return results
    }

    /// Reads members, naming the file and the item in its errors.
    private struct Reader {
        let path: String
        var context = ""

        func bad(_ reason: String) -> BadgeError {
            .badInput(path: path, reason: (context.isEmpty ? "" : context + ": ") + reason)
        }

        func value(_ object: JSONValue, _ key: String) throws(BadgeError) -> JSONValue {
            guard let value = object[key] else { throw bad("has no \"\(key)\"") }
            return value
        }

        func string(_ object: JSONValue, _ key: String) throws(BadgeError) -> String {
            guard case .string(let text) = try value(object, key) else { throw bad("\"\(key)\" is not a string") }
            return text
        }

        func optionalString(_ object: JSONValue, _ key: String) throws(BadgeError) -> String? {
            let found = try value(object, key)
            if found == .null { return nil }
            guard case .string(let text) = found else { throw bad("\"\(key)\" is not a string or null") }
            return text
        }

        func int(_ object: JSONValue, _ key: String) throws(BadgeError) -> Int {
            guard case .number(let number) = try value(object, key), number == number.rounded(),
                number >= 0, number < 1e15
            else { throw bad("\"\(key)\" is not a whole number") }
            return Int(number)
        }

        /// An image side or region size (pixels): below 2³¹, PNG's limit (RFC 2083 §11.2.2).
        func side(_ object: JSONValue, _ key: String) throws(BadgeError) -> Int {
            let value = try int(object, key)
            guard value < 1 << 31 else { throw bad("\"\(key)\" \(value) is not an image size (below 2³¹ pixels)") }
            return value
        }

        func optionalInt(_ object: JSONValue, _ key: String) throws(BadgeError) -> Int? {
            if try value(object, key) == .null { return nil }
            return try int(object, key)
        }

        func bool(_ object: JSONValue, _ key: String) throws(BadgeError) -> Bool {
            guard case .bool(let flag) = try value(object, key) else { throw bad("\"\(key)\" is not true or false") }
            return flag
        }

        func array(_ object: JSONValue, _ key: String) throws(BadgeError) -> [JSONValue] {
            guard case .array(let list) = try value(object, key) else { throw bad("\"\(key)\" is not an array") }
            return list
        }

        func number(_ object: JSONValue, _ key: String) throws(BadgeError) -> Double? {
            let found = try value(object, key)
            if found == .null { return nil }
            guard case .number(let number) = found else { throw bad("\"\(key)\" is not a number or null") }
            return number
        }

        /// One item.
        func entry(_ item: JSONValue) throws(BadgeError) -> CheckEntry {
            let index = try int(item, "index")
            guard let status = CheckEntry.Status(rawValue: try string(item, "status")) else {
                throw bad("\"status\" is not passed, changed, new, deleted or error")
            }
            // The message is printed as it stands (the run wrote its values escaped); a
            // hostile file's control characters or line breaks are escaped here, once.
            var entry = CheckEntry(
                path: try string(item, "path"), status: status, report: nil,
                message: TextEscaping.oneLine(try string(item, "message")))
            entry.index = index
            entry.label = try string(item, "label")
            let name = try string(item, "name")
            entry.name = name == entry.path ? nil : name
            entry.goldenWritten = try optionalString(item, "goldenWritten")
            if let code = try optionalInt(item, "errorCode") {
                guard let exit = ExitCode(rawValue: Int32(clamping: code)) else {
                    throw bad("\"errorCode\" \(code) is not one of iconbadge's")
                }
                entry.errorCode = exit
            }
            // An error exits with a failing code: an error item holding none, 0 or 1
            // (a hostile or damaged file) counts as bad data (65), never as success.
            if status == .error, entry.errorCode == nil || entry.errorCode == .success || entry.errorCode == .different
            {
                entry.errorCode = .dataError
            }
            entry.artifacts = try array(item, "artifacts").map { (value) throws(BadgeError) -> String in
                guard case .string(let text) = value else { throw bad("\"artifacts\" is not a list of paths") }
                return text
            }
            let images = try value(item, "images")
            entry.assets = CheckEntry.Assets(
                actual: try optionalString(images, "actual"), expected: try optionalString(images, "expected"),
                diff: try optionalString(images, "diff"))
            let comparison = try value(item, "comparison")
            if comparison != .null { entry.report = try report(comparison) }
            return entry
        }

        /// A comparison as `compare --json` printed it: what the reports show of it.
        func report(_ json: JSONValue) throws(BadgeError) -> ComparisonReport {
            var settings = CompareSettings()
            settings.tolerance = try int(json, "tolerance")
            settings.threshold = try number(json, "threshold")
            settings.maxDiffPixels = try optionalInt(json, "maxDiffPixels")
            settings.maxDiffRatio = try number(json, "maxDiffRatio")
            settings.mask = try optionalString(json, "mask")
            settings.storedColor = try bool(json, "storedColor")
            // Every size is an image side PNG allows (below 2³¹), so that products of
            // two (areas) cannot overflow, and every region lies inside its image: the
            // page places regions in percent of the image (issue 44).
            let width = try side(json, "width")
            let height = try side(json, "height")
            var regions: DiffRegions?
            if let count = try optionalInt(json, "regionCount") {
                let boxes = try array(json, "regions")
                guard boxes.count <= DiffRegions.kept, boxes.count <= count else {
                    throw bad("\"regions\" holds \(boxes.count) regions, more than \(min(count, DiffRegions.kept))")
                }
                let largest = try boxes.map { (box) throws(BadgeError) -> DiffRegion in
                    let region = DiffRegion(
                        x: try int(box, "x"), y: try int(box, "y"), width: try side(box, "width"),
                        height: try side(box, "height"), pixels: try int(box, "pixels"))
                    guard region.width >= 1, region.height >= 1, region.x <= width - region.width,
                        region.y <= height - region.height, region.pixels <= region.width * region.height
                    else {
                        throw bad(
                            "a region (\(region.width) × \(region.height) at \(region.x),\(region.y)) is not inside the \(width) × \(height) image"
                        )
                    }
                    return region
                }
                regions = DiffRegions(count: count, largest: largest)
            }
            let result = DiffResult(
                sameSize: try string(json, "reason") != "size", differentPixels: try int(json, "differentPixels"),
                antialiasedPixels: try int(json, "antialiasedPixels"), totalPixels: try int(json, "totalPixels"),
                maxChannelDelta: try int(json, "maxChannelDelta"), width: width,
                height: height, expectedWidth: try side(json, "expectedWidth"),
                expectedHeight: try side(json, "expectedHeight"), diff: nil,
                stoppedEarly: !(try bool(json, "countComplete")), ignoredPixels: try int(json, "ignoredPixels"),
                regions: regions)
            return ComparisonReport(
                result: result, equal: try bool(json, "equal"), settings: settings,
                diffPath: try optionalString(json, "diff"))
        }
    }
}
