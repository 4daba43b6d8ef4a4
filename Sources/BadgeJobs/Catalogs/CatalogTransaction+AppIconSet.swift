import BadgeCore
import BadgeRender
import BadgeSystem

extension CatalogTransaction {
    /// App icon sets' part of a plan.
    package struct SetsPlan {
        /// The sets badged (those with images).
        package var sets: [AppIconSet]
        /// Where they go.
        package var destination: AppIconSet.Destination
        /// Each set's folder once written (its `Contents.json`, in place).
        package var finals: [OutputLocation]
        /// Each set's jobs, writing to their destination; the check sends them to
        /// staging folders (`Plan.jobs`).
        package var planned: [[RenderJob]]
    }

    /// Plans `allSets`: a copy into `out`, or in place. Every image of every set is
    /// read and measured (`AppIconSet.jobs`) before anything is made.
    ///
    /// - Throws: 64 for an `out` that cannot hold the sets (one set's name for
    ///   several, two sets of one name, a set itself) and a bad `SOURCE_DATE_EPOCH`;
    ///   65 for a set iconbadge badged already; the sets' read errors.
    static func planSets(
        _ allSets: [AppIconSet], out: String?, sourceDateEpoch: String?, settings: Settings, relativeSize: Double,
        messages: any CatalogMessages
    ) throws(BadgeError) -> Plan? {
        var sets: [AppIconSet] = []
        for set in allSets {
            if set.images.isEmpty {
                messages.note("\(Quoted(set.folder)) has no images (every slot is empty); nothing to badge")
            } else {
                sets.append(set)
            }
        }
        guard !sets.isEmpty,
            try CatalogSizing.isShown(settings.render, failIfHidden: settings.failIfHidden, messages: messages)
        else { return nil }
        let destination: AppIconSet.Destination = out.map { .copy(into: $0) } ?? .inPlace
        if case .copy(let out) = destination, sets.count > 1 {
            guard sets[0].setComponents(into: out) != [] else {
                throw .usage(
                    "--out \(Quoted(out)) names one set, and \(sets.count) sets are badged; give a folder to hold them (or --set NAME)"
                )
            }
            for (index, set) in sets.enumerated() where sets[..<index].contains(where: { $0.name == set.name }) {
                throw .usage(
                    "two sets are named \(Quoted(set.name)) (in different groups); --out would write both to one folder: badge them one at a time (--set) or --in-place"
                )
            }
        }
        // A set iconbadge badged before would get a second badge over the first.
        for set in sets {
            if let badged = set.badgedImage { throw AppIconSet.badgedError(badged, inCatalog: sets.count > 1) }
        }
        let creationDate = try PDFDate.sourceDateEpoch(sourceDateEpoch)
        var planned: [[RenderJob]] = []
        var finals: [OutputLocation] = []
        for set in sets {
            let final = set.destinationFolder(destination)
            if case .copy(let out) = destination {
                guard FileIdentity.key(final.description) != FileIdentity.key(set.folder) else {
                    throw .usage(
                        sets.count > 1 || final.description != out
                            ? "--out \(Quoted(out)) holds the sets themselves (\(Quoted(set.folder))); use --in-place, or another folder"
                            : "--out \(Quoted(out)) would write into the set itself; use --in-place to replace its images"
                    )
                }
                // A copy inside the set would be a stray folder Xcode warns about, and
                // read as part of the set by the next run.
                if let finalReal = resolvedPath(final.description), let setReal = FileIdentity.realPath(set.folder),
                    finalReal.hasPrefix(setReal + "/")
                {
                    throw .usage(
                        "--out \(Quoted(out)) is inside the set \(Quoted(set.folder)); write the copy beside it (build/beta), or use --in-place"
                    )
                }
            }
            var jobs = try set.jobs(
                settings: settings.render, relativeSize: relativeSize, destination: destination,
                creationDate: creationDate)
            if sets.count > 1 { for index in jobs.indices { jobs[index].label = set.name + "/" + jobs[index].label } }
            planned.append(jobs)
            finals.append(final)
        }
        if !destination.isInPlace {
            for note in AssetCatalog.leftovers(inFolders: finals.map { OutputFile.parentFolder(of: $0.description) }) {
                messages.note(note)
            }
        }
        var plan = Plan(
            detail: .sets(SetsPlan(sets: sets, destination: destination, finals: finals, planned: planned)))
        plan.jobs = planned.flatMap { $0 }
        let contentsFiles = sets.map { $0.folder + "/Contents.json" }
        plan.identityInputs = (contentsFiles, contentsFiles[0])
        return plan
    }

    /// Checks the sets' destinations and stages each set: in place, every image must
    /// be replaceable (`JobPlanChecks.checkFileSystem`); a copy must not replace a
    /// folder holding folders or links, nor, without `replace`, a folder without a
    /// Contents.json that holds anything, nor a set that is not a
    /// copy of this one (its `Contents.json` differs: a hand-made beta set). The jobs
    /// then write into the staging folders.
    ///
    /// - Throws: 73 naming the destination.
    static func checkSets(_ plan: inout Plan, replace: Bool, staging: CatalogStaging) throws(BadgeError) {
        guard case .sets(let sets) = plan.detail else { return }
        if sets.destination.isInPlace { try JobPlanChecks.checkFileSystem(plan.jobs) }
        var jobs: [RenderJob] = []
        for (index, final) in sets.finals.enumerated() {
            let set = sets.sets[index]
            let folder = sets.destination.isInPlace ? try staging.inside(final) : try staging.beside(final)
            // An --out set that cannot be replaced fails now, before any render.
            if sets.destination.isInPlace {
                plan.commits.append((folder, .files(set.images.map { [$0.filename] })))
            } else {
                try folder.checkReplaceable(as: final.name ?? set.name)
                let existing = final.description + "/Contents.json"
                // A folder there is replaced only when it is a copy of this set (the
                // same Contents.json), or an empty one; anything else, with --replace.
                if !replace, !InputFile.isRegularFile(existing), InputFolder.holdsAnything(final.description) {
                    throw .cannotCreate(
                        path: final.description,
                        reason:
                            "is a folder that is not a copy of \(Quoted(set.folder)) (it has no Contents.json); --replace replaces it, or write elsewhere"
                    )
                }
                if !replace, InputFile.isRegularFile(existing),
                    (try? InputFile.bytes(at: existing, limit: AppIconSet.maxContentsBytes, what: "Contents.json"))
                        != set.contents
                {
                    throw .cannotCreate(
                        path: final.description,
                        reason:
                            "is a set that is not a copy of \(Quoted(set.folder)) (its Contents.json differs); --replace replaces it, or write elsewhere"
                    )
                }
                plan.files.append(
                    File(
                        folder: folder, components: ["Contents.json"], source: .bytes(set.contents),
                        shown: final.description + "/Contents.json"))
                plan.commits.append((folder, .folder(name: final.name ?? set.name, subfolders: [])))
            }
            jobs += AppIconSet.staging(sets.planned[index], into: folder)
        }
        plan.jobs = jobs
    }
}
