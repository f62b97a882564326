// One import for a team's contract tests: `import MockAPIVerify` brings the contract set to load,
// and only it from MockAPICore (whose other names, such as `JSONValue`, must not meet a team's own).
@_exported import struct MockAPICore.ContractSet
