import Foundation

/// Runs `body` with a fresh, empty temporary directory that is removed afterwards (storage and crash tests).
func withStorageScratch<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("regstate-storage-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

/// The `async` form of ``withStorageScratch(_:)``.
func withStorageScratch<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("regstate-storage-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url)
}

/// The permission bits of the item at `url`, read through `FileManager`.
func storagePermissions(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    guard let number = attributes[.posixPermissions] as? NSNumber else { return -1 }
    return number.intValue & 0o7777
}

/// The names in a directory, sorted, dot-files included except a store's own lock file (issue 13).
func storageEntries(of url: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0 != ".lock" }.sorted()
}
