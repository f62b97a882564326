// One import for a team's contract tests: `import MockAPIVerify` brings the contract set to load,
// and only it from MockAPICore (whose other names, such as `JSONValue`, must not meet a team's own).
@_exported import struct MockAPICore.ContractSet

// Checks are made of `URLRequest`s: on Linux they live in FoundationNetworking.
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
