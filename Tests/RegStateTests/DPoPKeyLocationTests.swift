import Foundation
import RegState
import RegStateTesting
import Testing

/// Where the DPoP key lives (issue 28): in software (PKCS #8) or in the Secure Enclave, whose record keeps only the
/// key's reference. Linux has no Secure Enclave: these check the record and the fallback, not the enclave.
@Suite("DPoP key location")
struct DPoPKeyLocationTests {
    @Test("Given a provider that prefers the Secure Enclave where there is none, when a key is made, then it is a software key that round-trips through the store")
    func fallsBackToSoftware() throws {
        let crypto = SystemCrypto(p256Keys: .secureEnclaveWhenAvailable)
        let key = try crypto.generateP256PrivateKey()
        #expect(key.secureEnclaveReference == nil)
        #expect(!key.pkcs8DER.isEmpty)
        let store = InMemorySecureStore()
        let keys = DPoPKeyStore(store: store, crypto: crypto)
        let made = try keys.replace()
        #expect(try keys.load() == made)
        let record = try #require(try store.data(forKey: DPoPKeyStore.recordKey))
        #expect(String(decoding: record, as: UTF8.self).contains(#""pkcs8""#))
    }

    @Test("Given a Secure Enclave record on a device that cannot use it, when it is loaded, then it is a typed unreadable record and is left in place")
    func enclaveRecordElsewhereIsTyped() throws {
        let record = Data(#"{"version":1,"kty":"EC","crv":"P-256","se":"c2VjdXJlLWVuY2xhdmUtYmxvYg"}"#.utf8)
        let store = InMemorySecureStore([DPoPKeyStore.recordKey: record])
        let keys = DPoPKeyStore(store: store, crypto: SystemCrypto())
        #expect(throws: DPoPError.keyRecordUnreadable(reason: "the private key is not a usable P-256 key")) { try keys.load() }
        #expect(try store.data(forKey: DPoPKeyStore.recordKey) == record)
    }

    @Test("Given a Secure Enclave record whose reference is not base64url, when it is loaded, then it is a typed unreadable record")
    func enclaveRecordMalformed() throws {
        let record = Data(#"{"version":1,"kty":"EC","crv":"P-256","se":"!!"}"#.utf8)
        let keys = DPoPKeyStore(store: InMemorySecureStore([DPoPKeyStore.recordKey: record]), crypto: SystemCrypto())
        #expect(throws: DPoPError.keyRecordUnreadable(reason: "Secure Enclave reference not base64url")) { try keys.load() }
    }

    @Test("A Secure Enclave key's description shows no material, and it is not a software key")
    func enclaveKeyIsRedacted() {
        let key = P256PrivateKey(secureEnclaveReference: Data("blob".utf8))
        #expect(key.description == "P256PrivateKey(redacted)")
        #expect(key.pkcs8DER.isEmpty)
        #expect(key != P256PrivateKey(pkcs8DER: Data("blob".utf8)))
    }
}
