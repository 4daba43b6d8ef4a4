import BadgeCore
import BadgeSystem

/// Checks a plan's jobs together before anything is rendered: no job writes a file
/// any job reads, no two writes are one file, every output can be created, every
/// golden to compare with exists.
///
/// Files are compared by `FileIdentity.Key` (device and inode where the file exists,
/// else the lexically normalised path below its deepest existing folder), never by
/// their spelling: `nx/../icon.png` is `icon.png`, and `fresh/./a.png` is `fresh/a.png`.
package enum JobPlanChecks {
    /// Why a plan is refused; the command words it (64 on a command line, 65 naming
    /// the jobs in a manifest).
    package enum Conflict: Error, Sendable {
        /// `job`'s `role` file (output, golden, artifact) is one of the inputs.
        case overwritesInput(job: String, role: String, path: String)
        /// Two jobs (or two roles of one job) write the same file.
        case sameFile(first: String, second: String, path: String)
    }

    /// Refuses writes that replace an input (`extraInputs`: the manifest, a catalog's
    /// Contents.json) or each other.
    ///
    /// - Throws: the first `Conflict` in job order.
    package static func checkIdentities(_ jobs: [RenderJob], extraInputs: [String] = []) throws(Conflict) {
        var inputs = extraInputs.map { FileIdentity.key($0) }
        for job in jobs { inputs += job.inputs.map { FileIdentity.key($0) } }
        var written: [(key: FileIdentity.Key, owner: String, path: String)] = []
        for job in jobs {
            for (location, role) in job.writes {
                let owner = job.label.isEmpty ? role : (role == "output" ? job.label : "\(job.label) (\(role))")
                written.append((FileIdentity.key(location), owner, location.description))
            }
        }
        // A lone render compares a few paths in arrays: a Set or Dictionary of a
        // Hashable key costs the Swift runtime a scan of every protocol conformance at
        // each start (callgrind). A batch indexes them.
        if jobs.count <= 8 {
            for (index, item) in written.enumerated() {
                if inputs.contains(item.key) { throw overwrite(item, jobs: jobs) }
                if let earlier = written[..<index].first(where: { $0.key == item.key }) {
                    throw .sameFile(first: earlier.owner, second: item.owner, path: item.path)
                }
            }
            return
        }
        let inputIndex = Set(inputs)
        var writtenIndex: [FileIdentity.Key: String] = [:]
        for item in written {
            if inputIndex.contains(item.key) { throw overwrite(item, jobs: jobs) }
            if let earlier = writtenIndex[item.key] {
                throw .sameFile(first: earlier, second: item.owner, path: item.path)
            }
            writtenIndex[item.key] = item.owner
        }
    }

    /// The conflict of a write that replaces an input.
    private static func overwrite(_ item: (key: FileIdentity.Key, owner: String, path: String), jobs: [RenderJob])
        -> Conflict
    {
        // The owner is "label (role)", "label" (an output) or the role alone.
        for job in jobs {
            for (location, role) in job.writes where location.description == item.path {
                return .overwritesInput(job: job.label, role: role, path: item.path)
            }
        }
        return .overwritesInput(job: "", role: "output", path: item.path)
    }

    /// Looks (without writing) at what each job will write and read: outputs can be
    /// created (no link in the way, folders there or to be made), each golden to
    /// compare with is a regular file.
    ///
    /// - Throws: 73 for an output that cannot be created; 66 for a missing golden.
    package static func checkFileSystem(_ jobs: [RenderJob]) throws(BadgeError) {
        for job in jobs {
            if case .file(let location, let creating) = job.output {
                try OutputFile.checkWritable(location, creatingFolders: creating)
            }
            guard let check = job.check else { continue }
            if check.update {
                try OutputFile.checkWritable(check.golden, creatingFolders: true)
            } else if !InputFile.isRegularFile(check.golden.description) {
                let path = check.golden.description
                let exists = FileIdentity.realPath(path) != nil
                throw .missingInput(
                    path: path,
                    reason: exists ? "is not a regular file" : "no such golden image (create it with --update)")
            }
        }
    }
}
