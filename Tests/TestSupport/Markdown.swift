import Foundation

/// A fenced code block of a Markdown file.
public struct MarkdownBlock: Sendable {
    /// The info string's first word (`console`, `json`, `text`), "" for none.
    public var language: String
    /// The rest of the info string (`beta.json` in ```` ```json beta.json ````), trimmed.
    public var argument: String
    /// The block's lines, with the fence's indentation removed.
    public var lines: [String]
    /// The 1-based line of the opening fence.
    public var line: Int
}

/// A link or image reference of a Markdown file: `[text](target)`, `![alt](target)`,
/// `<img src="target">`, `<a href="target">`.
public struct MarkdownLink: Sendable {
    public var target: String
    public var line: Int
}

/// The parts of a Markdown file the documentation tests read: fenced blocks, links
/// (outside code), and the anchors GitHub gives its headings.
public struct MarkdownDocument: Sendable {
    public var blocks: [MarkdownBlock] = []
    public var links: [MarkdownLink] = []
    /// Heading anchors in GitHub's form (`golden-checks-compare-and---check`),
    /// duplicates numbered (`-1`, `-2`), plus explicit `id`/`name` attributes.
    public var anchors: Set<String> = []
    /// The headings' text, in order, with their level.
    public var headings: [(level: Int, text: String)] = []

    public init(_ text: String) {
        var slugCounts: [String: Int] = [:]
        var fence: (marker: String, indent: Int, block: MarkdownBlock)?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine)
            let indent = line.prefix { $0 == " " }.count
            let trimmed = line.dropFirst(indent)
            if var open = fence {
                if trimmed.hasPrefix(open.marker), trimmed.allSatisfy({ $0 == open.marker.first! || $0 == " " }) {
                    blocks.append(open.block)
                    fence = nil
                } else {
                    let drop = min(open.indent, line.prefix { $0 == " " }.count)
                    open.block.lines.append(String(line.dropFirst(drop)))
                    fence = open
                }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                let marker = String(trimmed.prefix { $0 == trimmed.first! })
                let info = trimmed.dropFirst(marker.count).trimmingCharacters(in: .whitespaces)
                let language = info.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
                let argument = info.dropFirst(language.count).trimmingCharacters(in: .whitespaces)
                fence = (
                    marker, indent,
                    MarkdownBlock(language: language, argument: argument, lines: [], line: index + 1)
                )
                continue
            }
            if indent < 4, trimmed.hasPrefix("#") {
                let level = trimmed.prefix { $0 == "#" }.count
                let rest = trimmed.dropFirst(level)
                if level <= 6, rest.first == " " {
                    let heading = rest.trimmingCharacters(in: .whitespaces)
                    headings.append((level, heading))
                    let base = Self.slug(heading)
                    var slug = base
                    if let count = slugCounts[base] {
                        slug = "\(base)-\(count)"
                        slugCounts[base] = count + 1
                    } else {
                        slugCounts[base] = 1
                    }
                    anchors.insert(slug)
                }
            }
            let prose = Self.withoutCodeSpans(line)
            for target in Self.linkTargets(in: prose) { links.append(MarkdownLink(target: target, line: index + 1)) }
            for id in Self.attributes(["id", "name"], in: prose) { anchors.insert(id) }
        }
    }

    /// GitHub's heading anchor (github-slugger): the heading's text without its
    /// Markdown, lower-cased, every character but letters, digits, marks, `-`, `_`
    /// and spaces dropped, each space a `-`.
    public static func slug(_ heading: String) -> String {
        var text = heading.replacingOccurrences(of: "`", with: "")
        // [text](target) shows as text.
        if let regex = try? NSRegularExpression(pattern: #"!?\[([^\]]*)\]\([^)]*\)"#) {
            text = regex.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1")
        }
        text = text.replacingOccurrences(of: "**", with: "")
        var out = ""
        for scalar in text.lowercased().unicodeScalars {
            let properties = scalar.properties
            if scalar == " " {
                out += "-"
            } else if scalar == "-" || scalar == "_" || properties.isAlphabetic
                || properties.numericType != nil
                || properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark
            {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The line with its code spans (`` `…` ``) blanked, so their text is not read
    /// as links.
    static func withoutCodeSpans(_ line: String) -> String {
        var out = ""
        var ticks = 0
        var inside = 0
        var characters = Array(line)[...]
        while let character = characters.first {
            if character == "`" {
                ticks = characters.prefix { $0 == "`" }.count
                characters = characters.dropFirst(ticks)
                if inside == 0 {
                    inside = ticks
                } else if inside == ticks {
                    inside = 0
                }
                continue
            }
            if inside == 0 { out.append(character) }
            characters = characters.dropFirst()
        }
        return out
    }

    /// The targets of `[..](target)`, `![..](target)` and `src=`/`href=` attributes.
    static func linkTargets(in line: String) -> [String] {
        var targets: [String] = []
        if let regex = try? NSRegularExpression(pattern: #"\]\(<?([^)\s>]+)>?(\s+"[^"]*")?\)"#) {
            for match in regex.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                if let range = Range(match.range(at: 1), in: line) { targets.append(String(line[range])) }
            }
        }
        return targets + attributes(["src", "href"], in: line)
    }

    /// The values of HTML attributes named `names` (`src="…"`).
    static func attributes(_ names: [String], in line: String) -> [String] {
        var values: [String] = []
        for name in names {
            guard let regex = try? NSRegularExpression(pattern: #"<[a-zA-Z][^>]*\s"# + name + #"="([^"]*)""#) else {
                continue
            }
            for match in regex.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                if let range = Range(match.range(at: 1), in: line) { values.append(String(line[range])) }
            }
        }
        return values
    }
}
