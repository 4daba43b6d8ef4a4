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
        for key in path { value = value?[key] }
        if case .number(let n) = value { return n }
        return nil
    }

    /// A string at a path of keys.
    public func string(_ path: String...) -> String? {
        var value: JSONValue? = json
        for key in path { value = value?[key] }
        if case .string(let s) = value { return s }
        return nil
    }

    /// A rectangle object at a path of keys.
    public func rect(_ path: String...) -> Rect? {
        var value: JSONValue? = json
        for key in path { value = value?[key] }
        guard case .number(let x) = value?["x"], case .number(let y) = value?["y"],
            case .number(let w) = value?["width"], case .number(let h) = value?["height"]
        else { return nil }
        return Rect(x: x, y: y, width: w, height: h)
    }

    /// `canvas.width`, `canvas.height`.
    public var canvas: (width: Int, height: Int)? {
        guard let w = number("canvas", "width"), let h = number("canvas", "height") else { return nil }
        return (Int(w), Int(h))
    }

    /// Whether the badge is hidden.
    public var hidden: Bool { json["hidden"] == .bool(true) }
}
