import BadgeCore
import BadgeRender
import BadgeSystem

/// One render the pipeline runs: what to draw (`request`) and where the result goes
/// (a file or standard output, a golden check, a geometry report).
///
/// `JobPlanner` makes jobs from every source (a command line, a `--scales` expansion,
/// a manifest entry, a catalog slot), `JobPlanChecks` checks them together, and
/// `JobRunner` runs them; every command goes through these three.
package struct RenderJob: Sendable {
    /// How messages name the job: "" for a lone render, "@2x" for one scale of
    /// `--scales`, "jobs[3]" or "jobs[3]@2x" in a batch, a file name in a catalog.
    package var label: String
    /// What to draw, planned whole.
    package let request: RenderRequest
    /// Where the image goes; nil when the job only checks or reports.
    package var output: JobOutput?
    /// The golden to compare with (or to write, with update); nil for none.
    package var check: GoldenTarget?
    /// The animation written as one file (APNG, WebP, SVG), or nil for a still image
    /// (a frame written with `{frame}` is a still image of `request.animation.frame`).
    package var animation: BadgeAnimation?
    /// For one frame written with `{frame}`: the label of its whole animation ("" or
    /// "jobs[3]@2x") and the frame's number ("03"), so that what its frames share
    /// (an error, a note) is said once for them all.
    package var frame: (group: String, number: String)?
    /// Whether the job's `--report` geometry JSON is wanted.
    package var report = false
    /// The encoder settings of the output (and of an updated golden).
    package var encoding: Encoding
    /// Every file the job reads (icon, badge image, fonts), so that no output of any
    /// job replaces one of them.
    package var inputs: [String]
    /// Notes known before rendering (a raster icon resampled up for a scale).
    package var notes: [Diagnostic] = []
    /// The pixel size the output must have (a catalog slot's), or nil: a render of
    /// another size is an internal error (70), never a written file.
    package var requiredSize: (width: Int, height: Int)?

    /// A job from its parts.
    package init(
        label: String, request: RenderRequest, output: JobOutput?, check: GoldenTarget?, encoding: Encoding,
        inputs: [String]
    ) {
        self.label = label
        self.request = request
        self.output = output
        self.check = check
        self.encoding = encoding
        self.inputs = inputs
    }

    /// Every file the job writes, with the role each plays, for the plan's checks.
    var writes: [(location: OutputLocation, role: String)] {
        var list: [(OutputLocation, String)] = []
        switch output {
        case .file(let location, _), .staged(_, _, let location): list.append((location, "output"))
        case .standardOutput, nil: break
        }
        if let check {
            if check.update != .none { list.append((check.golden, "golden")) }
            list.append((check.actual, "artifact"))
            list.append((check.diff, "artifact"))
        }
        return list
    }
}

/// Where a job's image goes.
package enum JobOutput: Sendable, Equatable {
    /// A file, made missing folders first when `creatingFolders` (batch, catalogs).
    case file(OutputLocation, creatingFolders: Bool)
    /// Standard output (`-o -`).
    case standardOutput
    /// `components` below a staging folder, moved to `final` when every job of the
    /// command succeeded (catalogs write all or nothing); `final` names it in messages
    /// and plan checks.
    case staged(StagedFolder, components: [String], final: OutputLocation)

    /// The path for messages and reports (`-` for standard output).
    package var description: String {
        switch self {
        case .file(let location, _), .staged(_, _, let location): return location.description
        case .standardOutput: return "-"
        }
    }
}

/// How a job's output is encoded.
package struct Encoding: Sendable, Equatable {
    /// PNG, WebP, SVG or PDF.
    package var format: OutputFormat
    /// The PNG encoder's setting (the pixels do not depend on it).
    package var compression: PNGCompression
    /// PDF `CreationDate` (ISO 8601, from `SOURCE_DATE_EPOCH`), or nil for none.
    package var creationDate: String?
    /// Whether a PNG gets iconbadge's mark (`BadgedMark`): the images of app icon
    /// sets, which a later run must not badge again.
    package var marksBadged = false

    /// An encoding from its parts.
    package init(format: OutputFormat, compression: PNGCompression, creationDate: String?) {
        self.format = format
        self.compression = compression
        self.creationDate = creationDate
    }
}

/// A golden check: the render compared with a committed image, exactly or within a
/// budget, its actual image and diff written where the artifacts go when it differs.
package struct GoldenTarget: Sendable, Equatable {
    /// The golden image (read; written with `update`). Its extension picks the format
    /// compared (PNG, or SVG decoded like with like).
    package var golden: OutputLocation
    /// Where `NAME.actual.png` goes when the images differ (NAME: the golden's file
    /// name, extension included).
    package var actual: OutputLocation
    /// Where `NAME.diff.png` goes when the images differ (and have one size).
    package var diff: OutputLocation
    /// Which goldens may be written instead of failing (missing, changed, both).
    package var update: UpdateMode
    /// How the images are compared.
    package var compare: CompareSettings
    /// Where the HTML report's images of this check go (`batch --check --html`), nil
    /// without a report.
    package var reportAssets: ReportAssets?

    /// A target from its parts.
    package init(
        golden: OutputLocation, actual: OutputLocation, diff: OutputLocation, update: UpdateMode,
        compare: CompareSettings
    ) {
        self.golden = golden
        self.actual = actual
        self.diff = diff
        self.update = update
        self.compare = compare
    }

    /// The folder artifacts go into when no `--artifacts` is given: in the working
    /// folder, never beside the goldens, where they would be committed by accident.
    package static let defaultArtifacts = "iconbadge-artifacts"

    /// The target for `golden`, with artifacts (`NAME.actual.png`, `NAME.diff.png`, NAME
    /// the golden's whole file name, `icon.png.diff.png`, as the directory check names
    /// them) in the folder `artifacts` (a root and the components below it), or when
    /// nil in `iconbadge-artifacts/`.
    package init(golden: OutputLocation, artifacts: OutputLocation?, update: UpdateMode, compare: CompareSettings) {
        let name = golden.name ?? "golden"
        let folder = artifacts ?? OutputLocation(root: GoldenTarget.defaultArtifacts, components: [])
        func artifact(_ suffix: String) -> OutputLocation {
            OutputLocation(root: folder.root ?? ".", components: folder.relative.components + [name + suffix])
        }
        self.init(
            golden: golden, actual: artifact(".actual.png"), diff: artifact(".diff.png"), update: update,
            compare: compare)
    }
}

/// Something a job's user should know that is not an error, worded by the reporter.
package enum Diagnostic: Sendable, Equatable {
    /// The badge is hidden (a count of 0, or an empty value); the output is the icon.
    case hidden(HiddenReason)
    /// No font has these code points (each drawn as a box); the faces tried.
    case missingGlyphs(codePoints: [String], fontsTried: [String])
    /// A raster icon is resampled up by `factor` for a scale above its own (blurry);
    /// `perScaleFiles` when the icon path has no `{scale}` token to pick sharper files.
    case upscaledRaster(icon: String, factor: Double)
    /// A catalog's Contents.json declares another pixel size than the file has; the
    /// file's own size is used.
    case declaredSize(file: String, declared: Int, actual: Int)
    /// A note of the render itself (small text replaced, a non-square icon).
    case render(RenderNote)
    /// An explicit offset changed nothing: clamp took the badge to where it goes
    /// without it.
    case offsetIgnored
}
