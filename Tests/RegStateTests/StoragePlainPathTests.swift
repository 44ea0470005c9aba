import Foundation
import RegState
import Testing

/// `PlainPath` takes `URL`'s path code off the store's and journal's paths; wherever it says a path is plain, its answer
/// must be `URL`'s, for every path built from components that `URL` treats specially.
@Suite("PlainPath")
struct StoragePlainPathTests {
    /// Components that matter to `URL`: dots, empty ones, automount prefixes, characters it percent-encodes.
    static let components = ["a", "store", ".", "..", "...", "", "b c", "x.y", ".lock", "private", "var", "automount",
                             "100%", "é", "q?r", "h#t", "~", "-_+@"]

    /// Every path of up to three components, absolute or relative, with and without a trailing slash; then 3,000
    /// seeded ones of up to six.
    static let paths: [String] = {
        var paths = ["/", "", "/private/var/x", "/var/automount/x", "/privatex/y", "/tmp//x", "//x"]
        for a in components {
            for b in components {
                for c in ["", "a", "..", "."] {
                    let body = [a, b, c].joined(separator: "/")
                    paths += ["/" + body, body, "/" + body + "/"]
                }
            }
        }
        var seed: UInt64 = 0x5eed
        for _ in 0..<3_000 {
            var parts: [String] = []
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for shift in stride(from: 0, to: Int(seed >> 61) * 8, by: 8) {
                parts.append(components[Int((seed >> UInt64(shift + 3)) % UInt64(components.count))])
            }
            paths.append("/" + parts.joined(separator: "/"))
        }
        return paths
    }()

    @Test("Given any path, when standardized, then the answer is URL's standardizedFileURL path")
    func standardizedIsURLs() {
        for path in Self.paths where !path.isEmpty {
            #expect(PlainPath.standardized(path) == URL(fileURLWithPath: path).standardizedFileURL.path, "\(path)")
        }
    }

    @Test("Given a plain path, when URL reads it, then its path, parent, last component and children are the same")
    func plainPathsAreURLs() {
        var plain = 0
        for path in Self.paths where PlainPath.isPlain(path) {
            plain += 1
            let url = URL(fileURLWithPath: path, isDirectory: true)
            #expect(url.path == path)
            #expect(url.standardizedFileURL.path == path)
            #expect(PlainPath.parent(of: path) == url.deletingLastPathComponent().path, "\(path)")
            #expect(PlainPath.lastComponent(of: path) == url.lastPathComponent, "\(path)")
            #expect(PlainPath.appending(".lock", to: path) == url.appendingPathComponent(".lock").path, "\(path)")
        }
        #expect(plain > 500, "the rule covers many plain paths (\(plain))")
        #expect(PlainPath.appending("secure", to: "/") == "/secure")
        #expect(PlainPath.parent(of: "/journal.log") == "/")
    }

    @Test("Given a store and a journal opened by path, when read back, then their URLs are the URL initializers' own")
    func pathInitializersMatchURLOnes() throws {
        try withStorageScratch { scratch in
            let directory = scratch.appendingPathComponent("s", isDirectory: true)
            let byURL = try FileSecureStore(directory: directory)
            let byPath = try FileSecureStore(directoryPath: directory.path + "/./", fileSystem: PosixFileSystem())
            #expect(byPath.directory == byURL.directory)
            try byPath.set(Data("v".utf8), forKey: "k")
            #expect(try byURL.data(forKey: "k") == Data("v".utf8))
            let journalURL = scratch.appendingPathComponent("journal.log")
            let journal = try FileJournal(path: journalURL.path, fileSystem: PosixFileSystem())
            #expect(journal.url == (try FileJournal(url: journalURL)).url)
        }
    }
}
