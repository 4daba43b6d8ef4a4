import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// `ImageFile.pair`, what `compare` decodes its two images with: the same bytes once,
/// different files on two threads, and the errors a sequential read would give.
@Suite struct ImagePairTests {
    static let folder = Paths.fixture("icons")

    @Test func sameBytesAreDecodedOnceAndStillChecked() throws {
        let scratch = Paths.scratch("image-pair")
        let icon = Self.folder + "/folder-48x48.png"
        try? FileManager.default.removeItem(atPath: scratch + "/copy.png")
        try FileManager.default.copyItem(atPath: icon, toPath: scratch + "/copy.png")
        let (a, b) = try ImageFile.pair(icon, scratch + "/copy.png")
        let alone = try ImageFile.pixels(at: icon)
        #expect(a == b && a == alone)
        // A corrupt file is refused, never called equal to its copy.
        let corrupt = Array((try Data(contentsOf: URL(fileURLWithPath: icon))).prefix(100))
        try Data(corrupt).write(to: URL(fileURLWithPath: scratch + "/bad1.png"))
        try Data(corrupt).write(to: URL(fileURLWithPath: scratch + "/bad2.png"))
        #expect { try ImageFile.pair(scratch + "/bad1.png", scratch + "/bad2.png") } throws: { error in
            (error as? BadgeError)?.exitCode == .dataError
        }
    }

    @Test func differentFilesDecodeAsEachAlone() throws {
        for (first, second) in [
            ("folder-48x48.png", "user-trash-32x32.png"), ("app-ios-180.png", "mail-unread-symbolic.svg"),
        ] {
            let (a, b) = try ImageFile.pair(Self.folder + "/" + first, Self.folder + "/" + second)
            let firstAlone = try ImageFile.pixels(at: Self.folder + "/" + first)
            let secondAlone = try ImageFile.pixels(at: Self.folder + "/" + second)
            #expect(a == firstAlone)
            #expect(b == secondAlone)
        }
    }

    @Test func theFirstFilesErrorComesFirst() throws {
        let scratch = Paths.scratch("image-pair-errors")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: scratch + "/junk.png"))
        let good = Self.folder + "/folder-48x48.png"
        #expect { try ImageFile.pair(scratch + "/missing.png", scratch + "/junk.png") } throws: { error in
            guard let error = error as? BadgeError else { return false }
            return error.exitCode == .noInput && error.message.contains("missing.png")
        }
        #expect { try ImageFile.pair(good, scratch + "/junk.png") } throws: { error in
            guard let error = error as? BadgeError else { return false }
            return error.exitCode == .dataError && error.message.contains("junk.png")
        }
    }
}
