import RegState

extension SecureItemStore {
    /// Removes every key, returning the keys it removed (sorted): a test's clean slate (an app ends a session with
    /// `RegStateService.clearState()`).
    ///
    /// - Throws: the store's ``StoreError`` for the first key it cannot list or remove.
    @discardableResult
    public func removeAll() throws(StoreError) -> [String] {
        let all = try keys()
        for key in all { try removeValue(forKey: key) }
        return all
    }
}
