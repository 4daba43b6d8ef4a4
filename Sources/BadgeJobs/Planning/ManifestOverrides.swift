import BadgeCore

/// What the batch command line changes in every job of a manifest: `--set KEY=VALUE`
/// and the `${NAME}` variables `--env NAME` lets a manifest read.
package struct ManifestOverrides: Sendable {
    /// `--set` pairs, in order: each replaces the key in every job (the values of a
    /// repeatable option's key make one list: `setValues`).
    package var set: [(key: String, value: String)] = []
    /// `--env` names: the environment variables `${NAME}` may expand, with their
    /// values (nil when unset).
    package var variables: [(name: String, value: String?)] = []

    /// No overrides.
    package init() {}

    /// The keys a job's content is given by; setting one replaces the others.
    static let contentKeys: Set<String> = ["value", "text", "dot", "image"]

    /// `--set KEY=VALUE`, split.
    ///
    /// - Throws: 64 when there is no `=` or the key is empty.
    package static func parseSet(_ text: String) throws(BadgeError) -> (key: String, value: String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw .invalidValue(
                option: "--set", value: text, problem: "is not KEY=VALUE (e.g. --set value=1234 or --set text=beta)")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    /// `--env NAME`: a variable name (letters, digits, `_`, not starting with a digit).
    ///
    /// - Throws: 64 for another name.
    package static func checkVariableName(_ name: String) throws(BadgeError) {
        let bytes = Array(name.utf8)
        let valid =
            !bytes.isEmpty && !(48...57).contains(bytes[0])
            && bytes.allSatisfy {
                ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95
            }
        guard valid else {
            throw .invalidValue(
                option: "--env", value: name,
                problem: "is not a variable name (letters, digits and _, e.g. BUILD_NUMBER)")
        }
    }

    /// `manifest` with every job's `--set` keys replaced and `${NAME}` expanded in its
    /// string values (also inside arrays). `$${` writes a literal `${`.
    ///
    /// - Throws: 65 naming the job, key and variable when a `${NAME}` is not one of
    ///   the `--env` names (a manifest may come from a pull request: it must not read
    ///   CI secrets into an image), is unset, or is not closed.
    package func apply(to manifest: Manifest, path: String) throws(BadgeError) -> Manifest {
        var result = manifest
        let settings = setValues
        // What all expansions may add together: a manifest's own size limit, so a few
        // short ${NAME}s repeated cannot make a small manifest take gigabytes.
        var budget = Manifest.maxBytes
        for index in result.entries.indices {
            var pairs = result.entries[index].pairs
            for (key, value) in settings {
                // Which of several badges a content key would be for is not the
                // command's to guess.
                if Self.contentKeys.contains(key) || key == "badges", pairs.contains(where: { $0.key == "badges" }) {
                    throw .badInput(
                        path: path,
                        reason:
                            "jobs[\(result.entries[index].index)] draws several badges (\"badges\"), so --set \(key) cannot say which; write ${NAME} in that badge's value and pass it with --env NAME"
                    )
                }
                pairs.removeAll {
                    $0.key == key || (Self.contentKeys.contains(key) && Self.contentKeys.contains($0.key))
                }
                pairs.append((key, value))
                // A --set key is every job's, not the job's own.
                result.entries[index].ownKeys.removeAll { $0 == key }
            }
            let label = "jobs[\(result.entries[index].index)]"
            for pair in pairs.indices {
                pairs[pair].value = try expand(
                    pairs[pair].value, at: "\(label).\(pairs[pair].key)", path: path, budget: &budget)
            }
            result.entries[index].pairs = pairs
        }
        return result
    }

    /// The `--set` pairs as manifest values: a key given again replaces its value,
    /// except a repeatable option's (`icon-filter`, `fallback-font`), whose values
    /// collect into a list in order, as the flag's do.
    var setValues: [(key: String, value: JSONValue)] {
        var result: [(key: String, value: JSONValue)] = []
        for (key, value) in set {
            let repeatable = RenderOptions.all.contains { $0.name == key && $0.repeatable }
            if repeatable, let index = result.firstIndex(where: { $0.key == key }),
                case .array(let values) = result[index].value
            {
                result[index].value = .array(values + [.string(value)])
                continue
            }
            result.removeAll { $0.key == key }
            result.append((key, repeatable ? .array([.string(value)]) : .string(value)))
        }
        return result
    }

    private func expand(_ value: JSONValue, at place: String, path: String, budget: inout Int) throws(BadgeError)
        -> JSONValue
    {
        switch value {
        case .string(let text):
            let expanded = try expand(text, at: place, path: path)
            budget -= max(0, expanded.utf8.count - text.utf8.count)
            guard budget >= 0 else {
                throw .badInput(
                    path: path,
                    reason:
                        "\(place): its ${NAME} values make the manifest grow past \(Manifest.maxBytes >> 20) MiB; use fewer or shorter ones"
                )
            }
            return .string(expanded)
        case .array(let items):
            var expanded: [JSONValue] = []
            for (index, item) in items.enumerated() {
                expanded.append(try expand(item, at: "\(place)[\(index)]", path: path, budget: &budget))
            }
            return .array(expanded)
        case .object(let pairs):
            // A job's "badges" entries.
            var expanded: [(String, JSONValue)] = []
            for (key, item) in pairs {
                expanded.append((key, try expand(item, at: "\(place).\(key)", path: path, budget: &budget)))
            }
            return .object(expanded)
        default: return value
        }
    }

    /// The longest value a `${NAME}` expansion may make (UTF-8 bytes): 64 KiB, far
    /// over any label, path or colour, and small enough that checking it costs nothing.
    static let maxExpandedBytes = 64 << 10

    /// `text` with its `${NAME}` replaced.
    func expand(_ text: String, at place: String, path: String) throws(BadgeError) -> String {
        guard text.contains("${") else { return text }
        var out = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            if after.hasPrefix("${") {
                out += "${"
                rest = after.dropFirst(2)
                continue
            }
            guard after.hasPrefix("{") else {
                out += "$"
                rest = after
                continue
            }
            guard let close = after.firstIndex(of: "}") else {
                throw .badInput(path: path, reason: "\(place): \"${\" is not closed (write $${ for a literal ${)")
            }
            let name = String(after[after.index(after: after.startIndex)..<close])
            guard let variable = variables.first(where: { $0.name == name }) else {
                throw .badInput(
                    path: path,
                    reason:
                        "\(place): ${\(name)} is not a variable the command lets the manifest read; give --env \(name) to batch (a manifest may come from a pull request, so it reads only what the command names)"
                )
            }
            guard let value = variable.value else {
                throw .badInput(path: path, reason: "\(place): ${\(name)} is not set in the environment")
            }
            out += value
            guard out.utf8.count <= Self.maxExpandedBytes else {
                throw .badInput(
                    path: path,
                    reason:
                        "\(place): ${\(name)} makes the value longer than \(Self.maxExpandedBytes >> 10) KiB; pass a shorter value"
                )
            }
            rest = after[after.index(after: close)...]
        }
        return out + rest
    }
}
