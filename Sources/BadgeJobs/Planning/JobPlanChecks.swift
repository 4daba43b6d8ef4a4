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
        // A lone render compares a few paths: arrays, as a Set or Dictionary costs the
        // Swift runtime a conformance scan at each start (callgrind).
        var inputs: [FileIdentity.Key] = []
        var inputIndex: [FileIdentity.Key: Bool] = [:]
        let many = jobs.count > 8
        func addInput(_ path: String) {
            let key = FileIdentity.key(path)
            if many { inputIndex[key] = true } else if !inputs.contains(key) { inputs.append(key) }
        }
        for path in extraInputs { addInput(path) }
        for job in jobs { for path in job.inputs { addInput(path) } }
        func isInput(_ key: FileIdentity.Key) -> Bool { many ? inputIndex[key] != nil : inputs.contains(key) }

        var written: [(key: FileIdentity.Key, owner: String)] = []
        var writtenIndex: [FileIdentity.Key: String] = [:]
        for job in jobs {
            for (location, role) in job.writes {
                let key = FileIdentity.key(location)
                let owner = job.label.isEmpty ? role : (role == "output" ? job.label : "\(job.label) (\(role))")
                if isInput(key) {
                    throw .overwritesInput(job: job.label, role: role, path: location.description)
                }
                let earlier = many ? writtenIndex[key] : written.first(where: { $0.key == key })?.owner
                if let earlier {
                    throw .sameFile(first: earlier, second: owner, path: location.description)
                }
                if many { writtenIndex[key] = owner } else { written.append((key, owner)) }
            }
        }
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
