/// Where ``SystemCrypto`` makes new P-256 keys (the DPoP key).
public enum P256KeyLocation: Sendable, Equatable {
    /// In software: a PKCS #8 key kept in the secure store (the default; the only choice on Linux).
    case software
    /// In the Secure Enclave when the device has one (CryptoKit `SecureEnclave.isAvailable`), in software
    /// otherwise. The store then keeps only the key's reference, which works on this device alone.
    case secureEnclaveWhenAvailable
}
