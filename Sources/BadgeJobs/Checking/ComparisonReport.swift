import BadgeCore

/// The outcome of one comparison, in the stable shape `--json` prints.
package struct ComparisonReport: Sendable, Equatable {
    /// The counts.
    package var result: DiffResult
    /// Whether the images count as equal under the budget.
    package var equal: Bool
    /// The settings compared with.
    package var settings: CompareSettings
    /// Where the diff image was written, if it was.
    package var diffPath: String?

    /// `same`, `pixels` or `size`.
    package var reason: String { result.sameSize ? (result.differentPixels == 0 ? "same" : "pixels") : "size" }

    /// `compare --json`: schema 1, documented in docs/manual/golden-checks.md. Keys are only ever added
    /// within a schema (`ignoredPixels`, `ignoreRegions`, `mask` and `storedColor` were).
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("schema", .number(1)),
            ("equal", .bool(equal)),
            ("reason", .string(reason)),
            ("differentPixels", .number(Double(result.differentPixels))),
            ("totalPixels", .number(Double(result.totalPixels))),
            ("antialiasedPixels", .number(Double(result.antialiasedPixels))),
            ("ignoredPixels", .number(Double(result.ignoredPixels))),
            ("maxChannelDelta", .number(Double(result.maxChannelDelta))),
            ("width", .number(Double(result.width))),
            ("height", .number(Double(result.height))),
            ("expectedWidth", .number(Double(result.expectedWidth))),
            ("expectedHeight", .number(Double(result.expectedHeight))),
            ("mode", .string(settings.threshold == nil ? "exact" : "perceptual")),
            ("tolerance", .number(Double(settings.tolerance))),
            ("threshold", settings.threshold.map { .number($0) } ?? .null),
            // The pixel budget that applies: as given, 0 when no budget is given, null
            // when the ratio alone is the budget.
            (
                "maxDiffPixels",
                settings.maxDiffPixels.map { .number(Double($0)) }
                    ?? (settings.maxDiffRatio == nil ? .number(0) : .null)
            ),
            ("maxDiffRatio", settings.maxDiffRatio.map { .number($0) } ?? .null),
            ("countComplete", .bool(!result.stoppedEarly)),
            // How many --ignore rectangles were given (each resolved against the
            // expected image; ignoredPixels says what they and the mask covered).
            ("ignoreRegions", .number(Double(settings.ignore.count))),
            ("mask", settings.mask.map { .string($0) } ?? .null),
            ("storedColor", .bool(settings.storedColor)),
        ]
        // Where the pixels differ (DiffRegions): null when they were not all counted.
        members.append(("regionGap", .number(Double(DiffRegions.gap))))
        members.append(("regionCount", result.regions.map { .number(Double($0.count)) } ?? .null))
        members.append(("regions", result.regions.map { .array($0.largest.map(Self.regionJSON)) } ?? .null))
        members.append(("diff", diffPath.map { .string($0) } ?? .null))
        return .object(members)
    }

    /// One region: `{"x":30,"y":0,"width":12,"height":8,"pixels":96}` (pixels).
    package static func regionJSON(_ region: DiffRegion) -> JSONValue {
        .object([
            ("x", .number(Double(region.x))), ("y", .number(Double(region.y))),
            ("width", .number(Double(region.width))), ("height", .number(Double(region.height))),
            ("pixels", .number(Double(region.pixels))),
        ])
    }

    /// One human line, the verdict first (`same: 2304 pixels equal`, `different: 62 of
    /// 2304 pixels differ …`), as `compare ACTUAL EXPECTED` prints it.
    package var line: String {
        let verdict = equal ? "same" : "different"
        let detail = self.detail
        return verdict + (detail.hasPrefix("within ") ? " " : ": ") + detail
    }

    /// The line without its verdict, as the checks' lines show it after the status
    /// (`changed icons/a.png: 62 of 2304 pixels differ …`). It ends with `, N ignored`
    /// when an ignore map covered N pixels, and with `; 3 regions, the largest 12 × 8 at
    /// 30,0` when pixels differ.
    package var detail: String {
        guard result.sameSize else {
            return
                "sizes differ (actual \(result.width) × \(result.height), expected \(result.expectedWidth) × \(result.expectedHeight))"
        }
        let ignored = result.ignoredPixels > 0 ? ", \(result.ignoredPixels) ignored" : ""
        if result.stoppedEarly {
            return "pixels differ (stopped at the first; --json or --diff counts them)\(ignored)"
        }
        let total = result.totalPixels
        let percent = total > 0 ? Double(result.differentPixels) * 100 / Double(total) : 0
        let counted =
            "\(result.differentPixels) of \(total) pixels differ (\(ValueParsers.format((percent * 1000).rounded() / 1000))%)"
        let aa =
            (result.antialiasedPixels > 0 ? ", \(result.antialiasedPixels) anti-aliased not counted" : "") + ignored
        let regions = result.regions?.summary.map { "; " + $0 } ?? ""
        if equal {
            return result.differentPixels == 0
                ? (result.maxChannelDelta == 0 || settings.threshold == nil
                    ? "\(total - result.ignoredPixels) pixels equal\(aa)"
                    : "within threshold \(ValueParsers.format(settings.threshold!)): \(total) pixels, none beyond it\(aa)")
                : "within budget: \(counted)\(aa)\(regions)"
        }
        let budget = settings.budgetBroken(result).map { $0 == "no budget" ? "" : ", over \($0)" } ?? ""
        return "\(counted)\(budget), largest channel difference \(result.maxChannelDelta)\(aa)\(regions)"
    }
}
