import BadgeCore

/// One part of a check split across CI jobs (`--shard K/N`, as Playwright's `--shard`):
/// the items whose key falls in part K of N.
///
/// **Split.** An item (a job of a manifest, by its output's path below the output root;
/// an image of `compare DIR DIR`, by its path relative to the folders) is in part
/// `FNV-1a(key) mod N + 1`, where FNV-1a is the 64-bit Fowler–Noll–Vo hash of the key's
/// UTF-8 bytes (offset basis 14695981039346656037, prime 1099511628211; Fowler, Noll and
/// Vo, IETF draft-eastlake-fnv). It depends on the key alone, never on the machine,
/// the order of the items or Swift's per-process hashing, so the N parts of one run are
/// disjoint and together hold every item, on any runner.
package struct Shard: Equatable, Sendable, CustomStringConvertible {
    /// Which part, 1-based.
    package let index: Int
    /// How many parts.
    package let count: Int

    /// The most parts a run is split into.
    package static let maxCount = 1000

    /// A shard from its parts (1 ≤ `index` ≤ `count` ≤ `maxCount`).
    package init(index: Int, count: Int) {
        precondition((1...Self.maxCount).contains(count) && (1...count).contains(index), "shard out of range")
        self.index = index
        self.count = count
    }

    /// `2/3`.
    package var description: String { "\(index)/\(count)" }

    /// `--shard`'s value, `K/N` with 1 ≤ K ≤ N ≤ 1000, in ASCII digits.
    ///
    /// - Throws: 64 naming the value and the form.
    package static func parse(_ text: String, option: String = "--shard") throws(BadgeError) -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        func number(_ part: Substring) -> Int? {
            guard !part.isEmpty, part.count <= 4, part.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
            return Int(part)
        }
        guard parts.count == 2, let k = number(parts[0]), let n = number(parts[1]) else {
            throw .invalidValue(
                option: option, value: text,
                problem: "is not a shard; give K/N, the K-th of N parts (2/3: the second of three)")
        }
        guard (1...maxCount).contains(n) else {
            throw .invalidValue(
                option: option, value: text, problem: "splits into \(n) parts; give N from 1 to \(maxCount)")
        }
        guard (1...n).contains(k) else {
            throw .invalidValue(
                option: option, value: text, problem: "has no part \(k) of \(n); give K from 1 to \(n)")
        }
        return Shard(index: k, count: n)
    }

    /// Whether the item with `key` is in this part.
    package func contains(_ key: String) -> Bool { Int(Self.hash(key) % UInt64(count)) + 1 == index }

    /// The 64-bit FNV-1a hash of `key`'s UTF-8 bytes.
    package static func hash(_ key: String) -> UInt64 {
        var value: UInt64 = 14_695_981_039_346_656_037
        for byte in key.utf8 {
            value ^= UInt64(byte)
            value &*= 1_099_511_628_211
        }
        return value
    }
}
