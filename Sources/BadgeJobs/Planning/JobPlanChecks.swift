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
        /// `job`'s golden is one of its own inputs (its icon): the render of an icon
        /// with no visible badge equals the icon, so the check could not fail.
        case goldenIsInput(job: String, path: String)
    }

    /// Refuses writes that replace an input (`extraInputs`: the manifest, a catalog's
    /// Contents.json; every job's icon, images and fonts; the golden a job compares
    /// with and its `--mask`) or each other.
    ///
    /// - Throws: the first `Conflict` in job order.
    package static func checkIdentities(_ jobs: [RenderJob], extraInputs: [String] = []) throws(Conflict) {
        // Inputs exist (or the render fails reading them), so they are compared by
        // inode; a write can replace one only if it exists too: its inode, without
        // resolving any path (a lone render pays no realpath).
        for job in jobs {
            guard let golden = job.check?.golden, let key = FileIdentity.existingKey(golden) else { continue }
            if job.inputs.contains(where: { FileIdentity.existingKey($0) == key }) {
                throw .goldenIsInput(job: job.label, path: golden.description)
            }
        }
        var paths = extraInputs
        for job in jobs {
            paths += job.inputs
            // A golden compared with is read, and a mask always: another job's artifact
            // must not replace either.
            if let check = job.check {
                if check.update == .none { paths.append(check.golden.description) }
                if let mask = check.compare.mask { paths.append(mask) }
            }
        }
        let inputs = Membership(paths.compactMap { FileIdentity.existingKey($0) })
        // An input that does not exist (yet) is still one spelling of a file.
        let spellings = Membership(paths.map { LexicalPath($0).absolute() })
        var written: [(location: OutputLocation, owner: String, role: String, label: String)] = []
        for job in jobs {
            for (location, role) in job.writes {
                let owner = job.label.isEmpty ? role : (role == "output" ? job.label : "\(job.label) (\(role))")
                written.append((location, owner, role, job.label))
            }
        }
        for item in written {
            let spelled =
                (item.location.root.map { LexicalPath($0).appending(item.location.relative) }
                ?? item.location.relative).absolute()
            if spellings.contains(spelled) {
                throw .overwritesInput(job: item.label, role: item.role, path: item.location.description)
            }
            if let key = FileIdentity.existingKey(item.location), inputs.contains(key) {
                throw .overwritesInput(job: item.label, role: item.role, path: item.location.description)
            }
        }
        guard written.count > 1 else { return }
        // Two writes are compared by full key, resolved (they may not exist yet). A lone
        // render's few writes in arrays: a Dictionary of a Hashable key costs the Swift
        // runtime a scan of every protocol conformance at each start (callgrind).
        let keys = written.map { FileIdentity.key($0.location) }
        if written.count <= 8 {
            for index in keys.indices {
                if let earlier = keys[..<index].firstIndex(of: keys[index]) {
                    throw .sameFile(
                        first: written[earlier].owner, second: written[index].owner,
                        path: written[index].location.description)
                }
            }
            return
        }
        var seen: [FileIdentity.Key: Int] = [:]
        for index in keys.indices {
            if let earlier = seen[keys[index]] {
                throw .sameFile(
                    first: written[earlier].owner, second: written[index].owner,
                    path: written[index].location.description)
            }
            seen[keys[index]] = index
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
            if check.update != .none {
                try OutputFile.checkWritable(check.golden, creatingFolders: true)
            }
            if !check.update.createsMissing, !InputFile.isRegularFile(check.golden.description) {
                let path = check.golden.description
                let exists = FileIdentity.realPath(path) != nil
                throw .missingInput(
                    path: path,
                    reason: exists
                        ? "is not a regular file" : "no such golden image (create it with --update missing)")
            }
        }
    }
}

/// A collection asked whether it holds a value: a scan while small, a `Set` once
/// large (a manifest of 100,000 jobs would scan for 10¹⁰ comparisons). Small plans stay
/// arrays: the first use of a `Set` of a new type costs the Swift runtime a scan of
/// every protocol conformance, a visible share of a lone render's start (callgrind).
struct Membership<Element: Hashable> {
    let items: [Element]
    let set: Set<Element>?

    init(_ items: [Element]) {
        self.items = items
        set = items.count > 16 ? Set(items) : nil
    }

    func contains(_ item: Element) -> Bool { set?.contains(item) ?? items.contains(item) }
}
