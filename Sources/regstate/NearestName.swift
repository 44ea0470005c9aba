/// The name a person most likely meant when they mistyped one: "did you mean status?" for `regstate statu`.
enum NearestName {
    /// The one of `names` nearest to `typed`: the only name `typed` begins, or else the name at the smallest edit
    /// distance when that is at most 2 and less than half of `typed`'s length; `nil` when none is near.
    static func among(_ names: [String], to typed: String) -> String? {
        let prefixed = names.filter { !typed.isEmpty && $0.hasPrefix(typed) }
        if prefixed.count == 1 { return prefixed[0] }
        let scored = names.map { (name: $0, distance: distance(Array(typed), Array($0))) }
        guard let best = scored.min(by: { $0.distance < $1.distance }),
              best.distance <= 2, best.distance * 2 < typed.count,
              scored.filter({ $0.distance == best.distance }).count == 1 else { return nil }
        return best.name
    }

    /// The Levenshtein distance: single-character insertions, deletions and substitutions from `a` to `b`.
    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, character) in a.enumerated() {
            var current = [i + 1]
            for (j, other) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (character == other ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
