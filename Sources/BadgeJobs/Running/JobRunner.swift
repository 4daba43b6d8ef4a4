import BadgeCore
import BadgeRender
import BadgeSystem

/// Runs planned jobs: builds each one's scene (in parallel, `BatchRenderer`), then
/// paints and writes its output, builds its report and checks it against its golden,
/// on the worker that built it. One job's failure does not stop the others.
package enum JobRunner {
    /// Runs `jobs` on up to `workers` threads; `progress` gets the number done after
    /// each job (from any thread). Outcomes come back in job order.
    package static func run(
        _ jobs: [RenderJob], workers: Int, progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> [JobOutcome] {
        let results = BatchRenderer.run(
            jobs.map(\.request), workers: workers,
            deliver: { index, scene, encoderThreads throws(BadgeError) -> JobOutcome.Done in
                try finish(jobs[index], scene, encoderThreads: encoderThreads)
            }, progress: progress)
        // Indexes, not zip: Zip2Sequence's metadata checks Sequence conformances at run
        // time, a cost a lone render pays at start (callgrind).
        var outcomes: [JobOutcome] = []
        outcomes.reserveCapacity(jobs.count)
        for index in jobs.indices { outcomes.append(JobOutcome(label: jobs[index].label, result: results[index])) }
        return outcomes
    }

    /// Writes, reports and checks one job's scene.
    ///
    /// - Throws: encode and write errors (70, 73, 74), the golden check's errors.
    static func finish(_ job: RenderJob, _ scene: Scene, encoderThreads: Int) throws(BadgeError) -> JobOutcome.Done {
        var done = JobOutcome.Done()
        let raster = scene.icon.format != "svg" && scene.icon.format != "svgz"
        for note in job.notes {
            if case .upscaledRaster = note, !raster { continue }
            done.diagnostics.append(note)
        }
        for note in scene.allNotes { done.diagnostics.append(.render(note)) }
        let badges = scene.badges
        // "The output is the icon unchanged" only when no badge of several is drawn.
        // Nor when a pop fades out an old value that is drawn.
        if let reason = scene.badge.hidden, reason != .tooSmall, badges.allSatisfy({ $0.layout == nil }),
            !scene.drawsPreviousValue
        {
            done.diagnostics.append(.hidden(reason))
        }
        if badges.contains(where: { $0.layout?.offsetIgnored == true }) { done.diagnostics.append(.offsetIgnored) }
        for badge in badges where badge.layout != nil {
            guard let pixels = badge.textPixels, pixels < done.smallestText?.pixels ?? .infinity else { continue }
            done.smallestText = (badge.label ?? "", pixels)
        }
        for badge in badges where !badge.missingGlyphs.isEmpty {
            done.diagnostics.append(
                .missingGlyphs(codePoints: badge.missingGlyphs.map(\.codePointName), fontsTried: badge.fontsTried))
        }
        if let required = job.requiredSize,
            scene.canvasWidth != required.width || scene.canvasHeight != required.height
        {
            throw .internalError(
                "\(job.label) rendered at \(scene.canvasWidth)×\(scene.canvasHeight) px for a \(required.width)×\(required.height) px slot; nothing written"
            )
        }
        if let animation = job.animation, let output = job.output {
            let pixels = scene.canvasWidth * scene.canvasHeight
            let (total, overflow) = pixels.multipliedReportingOverflow(by: animation.frameCount)
            guard !overflow, total <= BadgeAnimation.maxTotalPixels else {
                throw .usage(
                    "\(animation.frameCount) frames of \(scene.canvasWidth) × \(scene.canvasHeight) px are over the \(BadgeAnimation.maxTotalPixels >> 20) M pixels one animation may draw; lower --fps or --duration, or --size"
                )
            }
            let bytes = try scene.animatedData(
                format: job.encoding.format, animation: animation, compression: job.encoding.compression,
                encoderThreads: encoderThreads)
            try write(bytes, to: output)
        } else if let output = job.output {
            // With no check to follow, the badges may be painted onto the decoded icon.
            var bytes = try scene.data(
                format: job.encoding.format, compression: job.encoding.compression,
                creationDate: job.encoding.creationDate, consumingIcon: job.check == nil,
                encoderThreads: encoderThreads)
            if job.encoding.marksBadged, job.encoding.format == .png { bytes = BadgedMark.marking(bytes) }
            try write(bytes, to: output)
        }
        if job.report {
            done.report = GeometryReport.json(
                scene, request: job.request, output: job.output?.description, animation: job.animation)
        }
        if let check = job.check {
            done.check = try GoldenCheck.run(
                scene, target: check, limits: job.request.limits, compression: job.encoding.compression,
                encoderThreads: encoderThreads)
        }
        return done
    }

    /// Writes an encoded output where the job sends it.
    ///
    /// - Throws: the write errors (73, 74).
    private static func write(_ bytes: [UInt8], to output: JobOutput) throws(BadgeError) {
        switch output {
        case .file(let location, let creatingFolders):
            try OutputFile.write(bytes, to: location, creatingFolders: creatingFolders)
        case .staged(let folder, let components, let final):
            try folder.write(bytes, components: components, shown: final.description)
        case .standardOutput:
            try OutputFile.write(bytes, to: "-")
        }
    }
}
