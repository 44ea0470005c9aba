/// Test seam: a proof made wrong on purpose (RegStateTesting's `DPoPProofDefect`); never set in production code.
package protocol DPoPProofTampering: Sendable {
    /// The proof `signer` makes of `claims`, made wrong.
    func proof(of claims: DPoPClaims, by signer: DPoPProofSigner) throws(DPoPError) -> String
}
