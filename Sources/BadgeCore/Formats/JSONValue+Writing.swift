extension JSONValue {
    /// Compact JSON text (no spaces), or indented by two spaces when `pretty`.
    /// Whole numbers print without a fraction (`3`, not `3.0`); others use Swift's
    /// shortest round-trip form. Strings escape `"`, `\`, control characters (C0, DEL, C1) and U+2028/U+2029.
    public func serialized(pretty: Bool = false) -> String {
        var out = ""
        write(into: &out, pretty: pretty, indent: 0, xcode: false)
        return out
    }

    /// Indented JSON as Xcode writes its asset files (`Contents.json`, `icon.json`):
    /// two spaces, `"key" : value`, an empty array as `[\n\n]`, no final newline; so a
    /// file Xcode wrote, read and written back, changes only where its values do.
    public func serializedAsXcode() -> String {
        var out = ""
        write(into: &out, pretty: true, indent: 0, xcode: true)
        return out
    }

    private func write(into out: inout String, pretty: Bool, indent: Int, xcode: Bool) {
        let newline = pretty ? "\n" : ""
        let pad = { (level: Int) in pretty ? String(repeating: "  ", count: level) : "" }
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let value): out += JSONValue.format(value)
        case .string(let value): JSONValue.writeString(value, into: &out)
        case .array(let items):
            if items.isEmpty {
                out += xcode ? "[\n\n" + pad(indent) + "]" : "[]"
                return
            }
            out += "[" + newline
            for (index, item) in items.enumerated() {
                out += pad(indent + 1)
                item.write(into: &out, pretty: pretty, indent: indent + 1, xcode: xcode)
                out += (index + 1 < items.count ? "," : "") + newline
            }
            out += pad(indent) + "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{" + newline
            for (index, (key, value)) in members.enumerated() {
                out += pad(indent + 1)
                JSONValue.writeString(key, into: &out)
                out += xcode ? " : " : (pretty ? ": " : ":")
                value.write(into: &out, pretty: pretty, indent: indent + 1, xcode: xcode)
                out += (index + 1 < members.count ? "," : "") + newline
            }
            out += pad(indent) + "}"
        }
    }

    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return String(value)
    }

    static func writeString(_ value: String, into out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                // C1 controls and the line separators are valid JSON, but escaped they
                // cannot drive a terminal that shows the document.
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
                    || scalar.value == 0x2029
                {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
