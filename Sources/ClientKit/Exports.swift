// `DecodingFailure` is part of ClientKit's API (`APIError.decoding`); it lives in its own small
// module so the contract runner can describe decoding errors without depending on ClientKit.
@_exported import DecodingDiagnostics
