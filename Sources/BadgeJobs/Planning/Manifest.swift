import BadgeCore
import BadgeRender

/// A batch manifest: `{"defaults": {...}, "jobs": [{...}, ...]}`, or JSON Lines
/// (one job object per line). Keys are the render command's long option names
/// (`"value"`, `"background"`, `"badge-anchor"`), plus `"icon"`, `"output"` and
/// `"scales"`; each job is its defaults with its own keys on top (a job's `value`,
/// `text`, `dot` or `image` replaces any of the four in the defaults).
package struct Manifest {
    /// One job as written: its keys and values, defaults merged, in order.
    package struct Entry {
        /// Position in the manifest (0-based), for `jobs[3]` in messages.
        package var index: Int
        /// Keys and values, defaults merged, in order.
        package var pairs: [(key: String, value: JSONValue)]
        /// The keys the job itself gives (not the defaults', nor `--set`'s): a
        /// ribbon refuses an `"offset"` of its own, but not one shared by every job.
        package var ownKeys: [String]

        /// An entry from its parts; `ownKeys` nil: every key is the job's own.
        package init(index: Int, pairs: [(key: String, value: JSONValue)], ownKeys: [String]? = nil) {
            self.index = index
            self.pairs = pairs
            self.ownKeys = ownKeys ?? pairs.map(\.key)
        }
    }

    /// The jobs as written, in order.
    package var entries: [Entry]

    /// A manifest of `entries`.
    package init(entries: [Entry]) { self.entries = entries }

    /// The largest manifest read (bytes).
    package static let maxBytes = 16 << 20

    /// The longest path a manifest may name (bytes): Linux's PATH_MAX.
    package static let maxPathBytes = 4096

    /// Keys that are not render options.
    package static let extraKeys = ["icon", "output", "scales", "densities", "badges"]

    /// Render options that mean nothing for one job of a batch (`--check` is the
    /// batch's own flag; a job writes its `output`, not its icon). How strictly images
    /// are compared is the batch command's to say; a job only adds the regions of its
    /// own image not to compare (`"ignore"`, `"mask"`).
    package static let excludedKeys = [
        "in-place", "check", "update", "artifacts", "report", "tolerance", "threshold",
        "include-aa", "max-diff-pixels", "max-diff-ratio", "diff-color-alt", "stored-color", "force",
    ]

    /// Parses a manifest's bytes that came from `path`.
    ///
    /// - Throws: 65 naming the path and the line and column of a JSON error, or
    ///   what is wrong with the document's shape.
    package static func parse(_ bytes: [UInt8], path: String) throws(BadgeError) -> Manifest {
        let parser = JSONParser(maxDepth: 32)
        let document: JSONValue
        do throws(JSONSyntaxError) {
            document = try parser.parse(bytes)
        } catch {
            // Not one JSON document. JSON Lines when its first line is a whole object.
            if error.line > 1, let lines = try jsonLines(bytes, parser: parser, path: path) {
                return Manifest(entries: lines.enumerated().map { Entry(index: $0.offset, pairs: $0.element) })
            }
            throw .badInput(path: path, reason: "not valid JSON: \(error.description)")
        }
        guard case .object(let members) = document else {
            throw .badInput(
                path: path, reason: "a manifest is a JSON object with \"jobs\" (or JSON Lines of job objects)")
        }
        if document["jobs"] == nil {
            guard document["defaults"] == nil else {
                throw .badInput(path: path, reason: "has \"defaults\" but no \"jobs\" array")
            }
            // A single JSON Lines entry.
            return Manifest(entries: [Entry(index: 0, pairs: members.map { ($0.0, $0.1) })])
        }
        for (key, _) in members where key != "jobs" && key != "defaults" {
            throw .badInput(path: path, reason: "unknown top-level key \(Quoted(key)) (use \"defaults\" and \"jobs\")")
        }
        var defaults: [(String, JSONValue)] = []
        if let value = document["defaults"] {
            guard case .object(let pairs) = value else {
                throw .badInput(path: path, reason: "\"defaults\" must be an object, not \(value.kindName)")
            }
            defaults = pairs
        }
        guard case .array(let jobs) = document["jobs"]! else {
            throw .badInput(path: path, reason: "\"jobs\" must be an array of objects")
        }
        var entries: [Entry] = []
        for (index, job) in jobs.enumerated() {
            guard case .object(let pairs) = job else {
                throw .badInput(path: path, reason: "jobs[\(index)] must be an object, not \(job.kindName)")
            }
            // A job's own content (value, dot or image) replaces the defaults' content,
            // and its own scale or scales the defaults' scale and scales.
            let content: Set<String> = ["value", "text", "dot", "image", "badges"],
                scale: Set<String> = ["scale", "scales", "densities"]
            let ownsContent = pairs.contains { content.contains($0.0) }
            let ownsScale = pairs.contains { scale.contains($0.0) }
            var merged = defaults.filter { key, _ in
                !pairs.contains { $0.0 == key } && !(ownsContent && content.contains(key))
                    && !(ownsScale && scale.contains(key))
            }
            merged += pairs
            entries.append(Entry(index: index, pairs: merged.map { ($0.0, $0.1) }, ownKeys: pairs.map(\.0)))
        }
        return Manifest(entries: entries)
    }

    /// The job objects of JSON Lines, or nil when the first line is not an object
    /// on its own (then the text is not JSON Lines at all).
    ///
    /// - Throws: 65 naming the line of the first line that is not a JSON object.
    private static func jsonLines(_ bytes: [UInt8], parser: JSONParser, path: String) throws(BadgeError)
        -> [[(key: String, value: JSONValue)]]?
    {
        var result: [[(key: String, value: JSONValue)]] = []
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        for (number, line) in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let text = Array(line)
            if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            let value: JSONValue
            do throws(JSONSyntaxError) {
                value = try parser.parse(text)
            } catch {
                if result.isEmpty { return nil }
                throw .badInput(
                    path: path,
                    reason: "not valid JSON Lines: line \(number + 1), column \(error.column): \(error.message)")
            }
            guard case .object(let pairs) = value else {
                if result.isEmpty { return nil }
                throw .badInput(
                    path: path,
                    reason: "not valid JSON Lines: line \(number + 1) is \(value.kindName), not a job object")
            }
            result.append(pairs.map { ($0.0, $0.1) })
        }
        return result.isEmpty ? nil : result
    }

    /// A JSON value as an option's text: strings as they are, numbers in their
    /// shortest form, booleans as true/false (for switches).
    package static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .number(let number): return JSONValue.number(number).serialized()
        case .bool(let flag): return flag ? "true" : "false"
        default: return nil
        }
    }
}
