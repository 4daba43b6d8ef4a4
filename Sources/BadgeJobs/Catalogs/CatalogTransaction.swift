import BadgeCore
import BadgeRender
import BadgeSystem

/// Where a catalog run's messages go: the command line words them (`iconbadge: note:
/// android: …`, the renders' diagnostics and failures).
package protocol CatalogMessages {
    /// A note about the run, without the command's name.
    func note(_ text: String)
    /// Says what the renders' `outcomes` (of `jobs`, in order) have to say, with
    /// `advice` for a badge too large for its image. What the run does next does not
    /// depend on it (`CatalogTally(outcomes)` counts the failures).
    func report(_ outcomes: [JobOutcome], jobs: [RenderJob], advice: SizeAdvice)
    /// Messages held back in order until `replay` is called, and dropped if it never
    /// is: the first run of a catalog that may run again at a smaller size.
    func holding() -> (messages: any CatalogMessages, replay: () -> Void)
}

/// How a catalog's renders ended: how many failed, and the run's exit code.
package struct CatalogTally: Sendable, Equatable {
    package var failed: Int
    package var exitCode: ExitCode

    package init(failed: Int, exitCode: ExitCode) {
        self.failed = failed
        self.exitCode = exitCode
    }

    /// The failures of `outcomes`, and the first one's exit code (0 when none
    /// failed): a catalog's renders write no golden check, so none is 1.
    package init(_ outcomes: [JobOutcome]) {
        var failed = 0
        var first: ExitCode?
        for outcome in outcomes {
            guard case .failure(let error) = outcome.result else { continue }
            failed += 1
            first = first ?? error.exitCode
        }
        self.init(failed: failed, exitCode: first ?? .success)
    }
}

/// One catalog badged all or nothing, for `appiconset` (a set, an `.xcassets`, a
/// `.brandassets`, an Icon Composer `.icon` bundle) and `android` (an overlay `res/`):
/// plan → check → run → commit.
///
/// - plan: every input is read and measured and the renders are planned, before
///   anything is written (an Android overlay and a bundle stage their folder here:
///   their renders draw on canvases staged in it);
/// - check: the plan's files against each other (`JobPlanChecks`) and against what
///   the destination holds (a set that is not a copy, an overlay's own files without
///   `--replace`, an earlier run's stale files), each staging folder made beside or
///   inside its destination;
/// - run: every render into the staging folders; at the default size a badge too
///   large for some images runs once more at the size that fits them all;
/// - commit: the staged files written (an overlay's record with their hashes), and
///   every staging folder moved into place at once (`StagedFolder.commit`). A failure
///   anywhere before leaves every destination as it was.
///
/// The command line parses, calls `badge`, and words the result.
package enum CatalogTransaction {
    /// What is badged, and where it goes.
    package enum Kind: Sendable {
        /// App icon sets (one, or those of an `.xcassets` or `.brandassets`): a copy
        /// into `out`, or in place when `out` is nil. `sourceDateEpoch` is
        /// `SOURCE_DATE_EPOCH` as given (a PDF image's creation date).
        case appIconSets([AppIconSet], out: String?, sourceDateEpoch: String?)
        /// An Icon Composer bundle: a badged copy into `out`, or in place when nil.
        case iconBundle(IconComposerBundle, out: String?)
        /// An Android `res/` folder's launcher icons, into the overlay `res/` `out`.
        case androidOverlay(AndroidResources, out: String)
    }

    /// The options a catalog run takes alike.
    package struct Settings: Sendable {
        /// The badges and how they are drawn.
        package var render: RenderSettings
        /// Badge height as a fraction of each image's reference box.
        package var relativeSize = 0.3
        /// Whether the relative size was given (`--relative-size`): it is then not
        /// shrunk to fit.
        package var relativeSizeGiven = false
        /// Images rendered at once.
        package var workers = 1
        /// A hidden badge is 64 instead of 0.
        package var failIfHidden = false
        /// Replace what is at the destination though iconbadge did not write it.
        package var replace = false

        package init(render: RenderSettings) { self.render = render }

        /// Whether a run at the default size may shrink: no `--relative-size` and no
        /// `--height` for any badge (nor their `ICONBADGE_` variables), not a dot.
        var shrinks: Bool { !relativeSizeGiven && !CatalogSizing.givesHeight(render) && !render.dot }
    }

    /// How a run ended.
    package enum Result {
        /// Nothing to badge (a hidden badge, sets without images): nothing written.
        case nothing
        /// Some renders failed: nothing written; `jobs` renders in all.
        case failed(CatalogTally, jobs: Int)
        /// Every file written and moved into place.
        case committed(Committed)
    }

    /// A committed run, for its summary and preview.
    package struct Committed {
        /// What was planned (the kind's details: the sets, the overlay, the bundle).
        package var plan: Plan
        /// The renders' outcomes, in the order of `plan.jobs`.
        package var outcomes: [JobOutcome]
    }

    /// One run at one relative size: its result, or, when it may shrink, the smaller
    /// size at which every image fits.
    enum Attempt {
        case done(Result)
        case shrink(to: Double, tooLarge: Int, of: Int)
    }

    /// Badges `kind` all or nothing at `settings.relativeSize`. When the size is the
    /// default one (`Settings.shrinks`) and the badge is too large for some images, it
    /// runs once more at the largest relative size that fits every image, with one
    /// note saying so: a long label (`DEBUG`, `STAGING`, `BETA 1234`) then works
    /// without knowing the figure. The first run's messages are held back: said when
    /// it stands or is refused, dropped when it runs again (it wrote nothing). The
    /// images of that first run are drawn twice then; only a run that would have
    /// failed pays for it.
    ///
    /// - Throws: the plan's and the check's refusals (64, 65, 66, 73), and the
    ///   commit's (73, 74); render failures are reported through `messages` and give
    ///   `.failed`.
    package static func badge(_ kind: Kind, settings: Settings, messages: any CatalogMessages) throws(BadgeError)
        -> Result
    {
        let relativeSize = settings.relativeSize
        guard settings.shrinks else {
            return try finished(attempt(kind, settings: settings, relativeSize: relativeSize, messages: messages))
        }
        let (held, replay) = messages.holding()
        let first: Attempt
        do throws(BadgeError) {
            first = try attempt(kind, settings: settings, relativeSize: relativeSize, shrinkable: true, messages: held)
        } catch {
            // Refused before anything was drawn (73, 64, …): its notes still stand.
            replay()
            throw error
        }
        switch first {
        case .done(let result):
            replay()
            return result
        case .shrink(let smaller, let tooLarge, let total):
            let which = total == 1 ? "" : " for \(tooLarge) of the \(total) images it draws"
            let drawn = total == 1 ? "drawn" : "every image drawn"
            messages.note(
                "the badge is too large\(which) at the default --relative-size \(RenderProblem.pixels(relativeSize)); \(drawn) at \(RenderProblem.pixels(smaller)) (--relative-size sets it)"
            )
            return try finished(attempt(kind, settings: settings, relativeSize: smaller, messages: messages))
        }
    }

    /// The result of a run that was not allowed to shrink.
    private static func finished(_ attempt: Attempt) throws(BadgeError) -> Result {
        guard case .done(let result) = attempt else { throw .internalError("a catalog run shrank unasked") }
        return result
    }

    /// One run at `relativeSize`: plan, check, run, commit; `.shrink` instead of the
    /// failures' report when `shrinkable` and the badge is too large for some images
    /// alone. Every staging folder is removed unless the run committed.
    static func attempt(
        _ kind: Kind, settings: Settings, relativeSize: Double, shrinkable: Bool = false,
        messages: any CatalogMessages
    ) throws(BadgeError) -> Attempt {
        let staging = CatalogStaging()
        var committed = false
        defer { if !committed { staging.discard() } }
        guard
            var plan = try Self.plan(
                kind, settings: settings, relativeSize: relativeSize, staging: staging, messages: messages)
        else { return .done(.nothing) }
        try check(&plan, settings: settings, staging: staging, messages: messages)
        let outcomes = run(plan, workers: settings.workers)
        if shrinkable,
            let (smaller, tooLarge) = CatalogSizing.shrunkSize(outcomes, jobs: plan.jobs, relativeSize: relativeSize)
        {
            return .shrink(to: smaller, tooLarge: tooLarge, of: plan.jobs.count)
        }
        let advice = CatalogSizing.advice(
            outcomes, jobs: plan.jobs, settings: settings.render, relativeSize: relativeSize)
        messages.report(outcomes, jobs: plan.jobs, advice: advice)
        let tally = CatalogTally(outcomes)
        guard tally.failed == 0 else { return .done(.failed(tally, jobs: plan.jobs.count)) }
        try commit(plan)
        committed = true
        return .done(.committed(Committed(plan: plan, outcomes: outcomes)))
    }

    /// Plans `kind` at `relativeSize`: the renders and the files to write, every input
    /// read and measured; nil when there is nothing to badge (a hidden badge, said in
    /// a note). Staging folders made here go into `staging`.
    ///
    /// - Throws: 64 for a destination or option the catalog cannot take, 65/66 for
    ///   an input that cannot be read or is refused (an image iconbadge badged
    ///   already), 73 when a staging folder cannot be made.
    package static func plan(
        _ kind: Kind, settings: Settings, relativeSize: Double, staging: CatalogStaging,
        messages: any CatalogMessages
    ) throws(BadgeError) -> Plan? {
        switch kind {
        case .appIconSets(let sets, let out, let sourceDateEpoch):
            return try planSets(
                sets, out: out, sourceDateEpoch: sourceDateEpoch, settings: settings, relativeSize: relativeSize,
                messages: messages)
        case .iconBundle(let bundle, let out):
            return try planBundle(
                bundle, out: out, settings: settings, relativeSize: relativeSize, staging: staging,
                messages: messages)
        case .androidOverlay(let resources, let out):
            return try planOverlay(
                resources, out: out, settings: settings, relativeSize: relativeSize, staging: staging,
                messages: messages)
        }
    }

    /// Checks `plan` before any render: no output overwrites an input or another
    /// output (`JobPlanChecks`), and the destination holds nothing the commit must not
    /// replace. Staging folders made here go into `staging`.
    ///
    /// - Throws: 65 for a conflict of the plan (naming the catalog's manifest: a
    ///   `Contents.json`, the `res/` folder); 73 for a destination that cannot be
    ///   replaced (a set that is not a copy of this one, an overlay's own files,
    ///   without `--replace`).
    package static func check(
        _ plan: inout Plan, settings: Settings, staging: CatalogStaging, messages: any CatalogMessages
    ) throws(BadgeError) {
        if let (inputs, manifest) = plan.identityInputs {
            do throws(JobPlanChecks.Conflict) {
                try JobPlanChecks.checkIdentities(plan.jobs, extraInputs: inputs)
            } catch {
                throw error.badInput(manifest: manifest)
            }
        }
        switch plan.detail {
        case .sets: try checkSets(&plan, replace: settings.replace, staging: staging)
        case .overlay: try checkOverlay(&plan, replace: settings.replace, messages: messages)
        case .bundle: break
        }
    }

    /// Runs the plan's renders into their staging folders; a quiet job's notes are
    /// dropped.
    static func run(_ plan: Plan, workers: Int) -> [JobOutcome] {
        var outcomes = JobRunner.run(plan.jobs, workers: workers)
        for index in plan.quiet { outcomes[index] = outcomes[index].withoutDiagnostics }
        return outcomes
    }

    /// Writes the plan's files beside its renders, and an overlay's record (the hash
    /// of every file this run wrote, and of those an earlier run wrote that are still
    /// there unchanged), then moves every staging folder into place at once.
    ///
    /// - Throws: 73/74 when a file cannot be written or a destination replaced.
    static func commit(_ plan: Plan) throws(BadgeError) {
        for (folder, components) in plan.scratch { folder.remove(components) }
        for file in plan.files {
            let bytes: [UInt8]
            switch file.source {
            case .bytes(let given): bytes = given
            case .copy(let path, let limit): bytes = try InputFile.bytes(at: path, limit: limit, what: "asset")
            }
            try file.folder.write(bytes, components: file.components, shown: file.shown)
        }
        if case .overlay(let overlay) = plan.detail { try writeRecord(overlay) }
        // Every folder at once, under one hold of the interrupt handler's lock.
        try StagedFolder.commit(plan.commits.map { ($0.folder, $0.commit) })
    }

    /// Writes the contact sheet of what `committed` wrote to `path` (its missing
    /// folders made, as `--out`'s are): the sets as the devices show them, the bundle,
    /// the overlay over its `res/`; every image read within the run's `limits`.
    ///
    /// - Returns: how many tiles it shows (`3 tiles`).
    /// - Throws: the sheet's read and write errors (65, 66, 73, 74); 65 for an image
    ///   over `limits`.
    package static func writePreview(of committed: Committed, to path: String, limits: ImageLimits)
        throws(BadgeError) -> String
    {
        let sheet: ContactSheet
        switch committed.plan.detail {
        case .sets(let sets):
            let written = sets.destination.isInPlace ? sets.sets.map(\.folder) : sets.finals.map(\.description)
            var badged: [AppIconSet] = []
            for folder in written { badged.append(try AppIconSet(folder: folder)) }
            let title = written.count == 1 ? Shown(written[0]).description : "\(written.count) sets"
            sheet = try AppIconSetPreview.sheet(title: title, sets: badged, limits: limits)
        case .bundle(let bundle):
            sheet = try IconBundlePreview.sheet(
                title: Shown(bundle.target).description, bundle: try IconComposerBundle(path: bundle.target),
                limits: limits)
        case .overlay(let overlay):
            sheet = try AndroidPreview.sheet(
                title: "\(Shown(overlay.out)) over \(Shown(overlay.resources.folder))", overlay: overlay.overlay,
                over: overlay.resources, limits: limits)
        }
        try PreviewOutput.write(sheet, to: path, limits: limits, creatingFolders: true)
        return PreviewOutput.tileCount(sheet)
    }
}

extension CatalogTransaction {
    /// A planned catalog run: its renders, the files written beside them, and how
    /// each staging folder is moved into place.
    package struct Plan {
        /// The renders, each writing into a staging folder once the check has run.
        package var jobs: [RenderJob] = []
        /// Jobs whose notes are not said, by index (`AndroidOverlay.quiet`).
        package var quiet: [Int] = []
        /// The inputs besides the jobs' own that no output may overwrite, and the
        /// file a conflict is blamed on; nil when the plan is not checked so.
        var identityInputs: (inputs: [String], manifest: String)?
        /// Files written into a staging folder once every render succeeded.
        var files: [File] = []
        /// Staged files removed before the commit (blank canvases, backdrops).
        var scratch: [(folder: StagedFolder, components: [String])] = []
        /// Every staging folder and how it is moved into place.
        package var commits: [(folder: StagedFolder, commit: StagedFolder.Commit)] = []
        /// What is badged, with what the summary and the preview need.
        package var detail: Detail

        init(detail: Detail) { self.detail = detail }
    }

    /// A file the commit writes into a staging folder.
    struct File {
        enum Source {
            case bytes([UInt8])
            /// A file copied as it is, of at most `limit` bytes (a bundle's asset).
            case copy(String, limit: Int)
        }
        var folder: StagedFolder
        var components: [String]
        var source: Source
        /// The path the file is shown as (its destination).
        var shown: String
    }

    /// A plan's catalog.
    package enum Detail {
        case sets(SetsPlan)
        case bundle(BundlePlan)
        case overlay(OverlayPlan)
    }
}

/// The staging folders of one catalog run, removed unless it commits.
package final class CatalogStaging {
    package private(set) var folders: [StagedFolder] = []

    package init() {}

    /// A staging folder beside `destination` (a folder made whole).
    package func beside(_ destination: OutputLocation) throws(BadgeError) -> StagedFolder {
        let folder = try StagedFolder.beside(destination)
        folders.append(folder)
        return folder
    }

    /// A staging folder inside the folder of `fileInDestination` (files replaced one by one).
    package func inside(_ fileInDestination: OutputLocation) throws(BadgeError) -> StagedFolder {
        let folder = try StagedFolder.inside(fileInDestination)
        folders.append(folder)
        return folder
    }

    /// Removes every staging folder and what it holds.
    package func discard() { for folder in folders { folder.discard() } }
}

extension JobPlanChecks.Conflict {
    /// The conflict as the bad input (65) it is, blamed on `manifest` (a manifest, a
    /// set's `Contents.json`, an Android `res/` folder).
    package func badInput(manifest: String) -> BadgeError {
        switch self {
        case .overwritesInput(let label, let role, let path):
            let what = role == "output" ? "" : " (\(role))"
            return .badInput(path: manifest, reason: "\(label)\(what) would overwrite an input, \(Quoted(path))")
        case .goldenIsInput(let label, let path):
            return .badInput(
                path: manifest, reason: "\(label)'s golden \(Quoted(path)) is one of its inputs (its icon)")
        case .sameFile(let first, let second, let path):
            return .badInput(path: manifest, reason: "\(first) and \(second) both write \(Quoted(path))")
        }
    }
}
