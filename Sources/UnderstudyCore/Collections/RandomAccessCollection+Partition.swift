extension RandomAccessCollection where Index == Int {
    /// The index of the first element for which `isPast` holds, in a collection along which it is false, then true
    /// (a binary search: O(log n)).
    package func partitioningIndex(where isPast: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if isPast(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
