import BadgeCore

/// Reads the fields of a `--report` document that tests assert on.
public struct ReportJSON {
    /// The parsed document.
    public let json: JSONValue

    /// Parses `text`, the standard output of `iconbadge ... --report`.
    public init(_ text: String) throws {
        json = try JSONParser().parse(text)
    }

    /// A number at a path of keys (`["badge", "rect", "x"]`).
    public func number(_ path: String...) -> Double? {
        var value: JSONValue? = json
        for key in path { value = Self.step(value, key) }
        if case .number(let n) = value { return n }
        return nil
    }

    /// A string at a path of keys.
    public func string(_ path: String...) -> String? {
        var value: JSONValue? = json
        for key in path { value = Self.step(value, key) }
        if case .string(let s) = value { return s }
        return nil
    }

    /// A rectangle object at a path of keys.
    public func rect(_ path: String...) -> Rect? {
        var value: JSONValue? = json
        for key in path { value = Self.step(value, key) }
        guard case .number(let x) = value?["x"], case .number(let y) = value?["y"],
            case .number(let w) = value?["width"], case .number(let h) = value?["height"]
        else { return nil }
        return Rect(x: x, y: y, width: w, height: h)
    }

    /// One step down a path: an object's member, or an array's element when the key
    /// is a number (`"badges", "1"`).
    static func step(_ value: JSONValue?, _ key: String) -> JSONValue? {
        if case .array(let items) = value, let index = Int(key) {
            return items.indices.contains(index) ? items[index] : nil
        }
        return value?[key]
    }

    /// `canvas.width`, `canvas.height`.
    public var canvas: (width: Int, height: Int)? {
        guard let w = number("canvas", "width"), let h = number("canvas", "height") else { return nil }
        return (Int(w), Int(h))
    }

    /// Whether the badge is hidden.
    public var hidden: Bool { json["hidden"] == .bool(true) }
}
