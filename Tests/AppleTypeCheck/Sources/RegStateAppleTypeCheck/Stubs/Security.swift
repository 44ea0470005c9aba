#if REGSTATE_APPLE_TYPECHECK
import Foundation

// Hand-written stand-ins for exactly the Security framework symbols RegState's Apple-only files use, declared as
// Apple documents them (developer.apple.com/documentation/security) so that those files type-check on Linux. Never
// run: every body traps. Core Foundation types are modelled by the Swift types they bridge to (CFString as String,
// CFDictionary as a Swift dictionary, CFData as Data, CFTypeRef as Any), so toll-free bridging casts (`as String`,
// `as CFDictionary`) type-check as they do on Apple platforms; that is looser than Apple's declarations.

#if canImport(CLibCrypto)
#error("the Apple type check must not see CLibCrypto: the Linux crypto files would be compiled instead")
#endif

public typealias OSStatus = Int32
public typealias CFTypeRef = Any
public typealias CFString = String
public typealias CFDictionary = [String: Any]
public typealias CFData = Data
/// A Core Foundation error.
public final class CFError: Error, @unchecked Sendable {}

private func stub() -> Never { fatalError("Apple type-check stub: never run") }

// MARK: Result codes (SecBase.h)
public let errSecSuccess: OSStatus = 0
public let errSecItemNotFound: OSStatus = -25300
public let errSecInteractionNotAllowed: OSStatus = -25308
public let errSecUserCanceled: OSStatus = -128

// MARK: Item class, attribute, search and return keys (SecItem.h)
public let kSecClass: CFString = "class"
public let kSecClassGenericPassword: CFString = "genp"
public let kSecAttrService: CFString = "svce"
public let kSecAttrAccount: CFString = "acct"
public let kSecAttrAccessGroup: CFString = "agrp"
public let kSecAttrAccessible: CFString = "pdmn"
public let kSecAttrAccessControl: CFString = "accc"
public let kSecAttrSynchronizable: CFString = "sync"
public let kSecUseDataProtectionKeychain: CFString = "nleg"
public let kSecReturnData: CFString = "r_Data"
public let kSecReturnAttributes: CFString = "r_Attributes"
public let kSecValueData: CFString = "v_Data"
public let kSecMatchLimit: CFString = "m_Limit"
public let kSecMatchLimitOne: CFString = "m_LimitOne"
public let kSecMatchLimitAll: CFString = "m_LimitAll"
public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"

public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { stub() }
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { stub() }
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { stub() }
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { stub() }

// MARK: Access control (SecAccessControl.h)
/// An item's access control.
public final class SecAccessControl: @unchecked Sendable {}
/// The conditions of an access control.
public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
}
public func SecAccessControlCreateWithFlags(_ allocator: AnyObject?, _ protection: CFTypeRef,
                                            _ flags: SecAccessControlCreateFlags,
                                            _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecAccessControl? { stub() }

// MARK: Keys (SecKey.h) and random numbers (SecRandom.h)
/// A key.
public final class SecKey: @unchecked Sendable {}
/// A signature algorithm.
public struct SecKeyAlgorithm: RawRepresentable, Sendable {
    public let rawValue: CFString
    public init(rawValue: CFString) { self.rawValue = rawValue }
    public static let rsaSignatureMessagePKCS1v15SHA256 = SecKeyAlgorithm(rawValue: "algid:sign:RSA:message-PKCS1v15:SHA256")
    public static let rsaSignatureMessagePSSSHA256 = SecKeyAlgorithm(rawValue: "algid:sign:RSA:message-PSS:SHA256")
    public static let rsaSignatureMessagePSSSHA512 = SecKeyAlgorithm(rawValue: "algid:sign:RSA:message-PSS:SHA512")
    public static let ecdsaSignatureMessageX962SHA256 = SecKeyAlgorithm(rawValue: "algid:sign:ECDSA:message-X962:SHA256")
}
public let kSecAttrKeyType: CFString = "type"
public let kSecAttrKeyTypeRSA: CFString = "42"
public let kSecAttrKeySizeInBits: CFString = "bsiz"
public let kSecAttrKeyClass: CFString = "kcls"
public let kSecAttrKeyClassPublic: CFString = "0"
public let kSecAttrKeyClassPrivate: CFString = "1"

public func SecKeyCreateWithData(_ keyData: CFData, _ attributes: CFDictionary,
                                 _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? { stub() }
public func SecKeyCreateRandomKey(_ parameters: CFDictionary,
                                  _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? { stub() }
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? { stub() }
public func SecKeyCopyExternalRepresentation(_ key: SecKey,
                                             _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? { stub() }
public func SecKeyGetBlockSize(_ key: SecKey) -> Int { stub() }
public func SecKeyCreateSignature(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData,
                                  _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? { stub() }
public func SecKeyVerifySignature(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData,
                                  _ signature: CFData, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> Bool { stub() }

/// The random number generator.
public final class SecRandom: @unchecked Sendable {}
public let kSecRandomDefault: SecRandom? = nil
public func SecRandomCopyBytes(_ rnd: SecRandom?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 { stub() }
#endif
