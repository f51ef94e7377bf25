// swift-format-ignore-file
// (A stand-in spells Apple's names as Apple does, and leaves them undocumented.)

// A stand-in for Apple's Security framework on Linux: only the names the docs use, with the
// same shapes, so that the Keychain examples type-check. Never shipped, never run.

@_exported import Foundation

public typealias OSStatus = Int32
public typealias CFString = String
public typealias CFDictionary = [String: Any]
public typealias CFTypeRef = AnyObject

public let errSecSuccess: OSStatus = 0
public let errSecItemNotFound: OSStatus = -25_300

public let kSecClass: CFString = "class"
public let kSecClassGenericPassword: CFString = "genp"
public let kSecAttrService: CFString = "svce"
public let kSecAttrAccessible: CFString = "pdmn"
public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
public let kSecValueData: CFString = "v_Data"
public let kSecReturnData: CFString = "r_Data"

public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?)
  -> OSStatus
{ errSecSuccess }

public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
  errSecSuccess
}

public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?)
  -> OSStatus
{ errSecItemNotFound }

public func SecItemDelete(_ query: CFDictionary) -> OSStatus { errSecSuccess }
