#if REGSTATE_APPLE_TYPECHECK
import Foundation

// Hand-written stand-ins for exactly the CryptoKit symbols RegState's Apple-only files use, declared as Apple
// documents them (developer.apple.com/documentation/cryptokit), so that those files type-check on Linux. Never run.

private func stub() -> Never { fatalError("Apple type-check stub: never run") }

/// SHA-256.
public struct SHA256: Sendable {
    /// The digest of `data`.
    public static func hash<D: DataProtocol>(data: D) -> SHA256Digest { stub() }
}

/// A SHA-256 digest: a sequence of bytes.
public struct SHA256Digest: Sequence, Sendable {
    public func makeIterator() -> Array<UInt8>.Iterator { stub() }
}

/// A symmetric key.
public struct SymmetricKey: Sendable {
    public init<D: ContiguousBytes>(data: D) { stub() }
}

/// HMAC over `H`.
public struct HMAC<H>: Sendable {
    /// The authentication code of `data` under `key`.
    public static func authenticationCode<D: DataProtocol>(for data: D, using key: SymmetricKey)
        -> HashedAuthenticationCode<H> { stub() }
}

/// An HMAC: a sequence of bytes.
public struct HashedAuthenticationCode<H>: Sequence, Sendable {
    public func makeIterator() -> Array<UInt8>.Iterator { stub() }
}

/// NIST P-256.
public enum P256 {
    /// ECDSA over P-256.
    public enum Signing {
        /// A public key.
        public struct PublicKey: Sendable {
            public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws { stub() }
            public var x963Representation: Data { stub() }
            public func isValidSignature<D: DataProtocol>(_ signature: ECDSASignature, for data: D) -> Bool { stub() }
        }

        /// A private key in software.
        public struct PrivateKey: Sendable {
            public init(compactRepresentable: Bool = true) { stub() }
            public init<Bytes: RandomAccessCollection>(derRepresentation: Bytes) throws where Bytes.Element == UInt8 { stub() }
            public var derRepresentation: Data { stub() }
            public var publicKey: PublicKey { stub() }
            public func signature<D: DataProtocol>(for data: D) throws -> ECDSASignature { stub() }
        }

        /// An ECDSA signature.
        public struct ECDSASignature: Sendable {
            public init<D: DataProtocol>(rawRepresentation: D) throws { stub() }
            public var rawRepresentation: Data { stub() }
        }
    }
}

/// The public key and signature types of P-256, named outside ``SecureEnclave`` (whose `P256` shadows the curve).
public typealias CryptoKitP256PublicKey = P256.Signing.PublicKey
public typealias CryptoKitP256Signature = P256.Signing.ECDSASignature

/// The device's Secure Enclave.
public enum SecureEnclave {
    /// Whether the device has a Secure Enclave.
    public static var isAvailable: Bool { stub() }

    /// P-256 inside the Secure Enclave.
    public enum P256 {
        /// ECDSA over P-256 inside the Secure Enclave.
        public enum Signing {
            /// A private key that never leaves the Secure Enclave.
            public struct PrivateKey: Sendable {
                public init(compactRepresentable: Bool = true) throws { stub() }
                public init(dataRepresentation: Data) throws { stub() }
                public var dataRepresentation: Data { stub() }
                public var publicKey: CryptoKitP256PublicKey { stub() }
                public func signature<D: DataProtocol>(for data: D) throws -> CryptoKitP256Signature { stub() }
            }
        }
    }
}
#endif
