import Foundation

/// The fleet's next calls in virtual time: a binary min-heap of (time, install), ties broken by install, so a seed
/// replays.
struct FleetQueue {
    private var heap: [(time: TimeInterval, install: Int)] = []

    private static func before(_ a: (time: TimeInterval, install: Int), _ b: (time: TimeInterval, install: Int)) -> Bool {
        a.time < b.time || (a.time == b.time && a.install < b.install)
    }

    mutating func push(time: TimeInterval, install: Int) {
        heap.append((time, install))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (time: TimeInterval, install: Int)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, Self.before(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count, Self.before(heap[right], heap[smallest]) { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }
}
