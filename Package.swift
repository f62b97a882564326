// swift-tools-version:6.2
// 6.2: the runner's public API uses `SendableMetatype` (Swift 6.2, Xcode 26).
// mockapi: a mock API server and contract-test harness for Swift API clients.
// Copyright 2026 the mockapi authors. Licensed under the Apache License, Version 2.0 (LICENSE, NOTICE).
import PackageDescription

// Every Swift target's settings, as Hummingbird has them: `any` spelled out, members visible only
// through a module the file imports, and imports internal unless a file says otherwise.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// The release `mockapi` on Linux, linked for a small resident footprint and a quick start: lld
// puts the functions a server runs (scripts/link/hot-functions.order, written by
// scripts/link/hot-functions) together at the front of .text, so the kernel's 64 KB fault-around
// maps a few MB of code where it mapped 12 MB; and packs the 88,000 relative relocations the
// loader reads at every start into 17 KB (DT_RELR, glibc 2.36) where RELA took 2.1 MB.
let releaseLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(
        [
            // lld with --as-needed first (scripts/link/ld.lld says why): no libcurl at start.
            "-use-ld=\(Context.packageDirectory)/scripts/link/ld.lld",
            "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/scripts/link/hot-functions.order",
            "-Xlinker", "--no-warn-symbol-ordering",
            "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        ],
        .when(platforms: [.linux], configuration: .release))
]

// The release `mockapi`'s own code asks for a generic type's metadata through the type's accessor,
// handing it the conformances it needs, rather than by mangled name: the runtime resolves a name by
// checking each requirement, and the first check of a conformance scans all 6,700 conformance
// records (about 400,000 instructions; docs/performance.md, "The start"). Only this target: a
// library target with unsafe flags could not be a versioned package's dependency.
let releaseSwiftSettings: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release))
]

let package = Package(
    name: "mockapi",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "mockapi", targets: ["mockapi"]),
        .library(name: "MockAPICore", targets: ["MockAPICore"]),
        .library(name: "MockAPIServer", targets: ["MockAPIServer"]),
        .library(name: "ClientKit", targets: ["ClientKit"]),
        .library(name: "ExampleAPI", targets: ["ExampleAPI"]),
        // A team's contract tests need only this one: it builds MockAPICore, MockAPIServer, DecodingDiagnostics and the C shims (scripts/consumer-check).
        .library(name: "MockAPIVerify", targets: ["MockAPIVerify"]),
        // Checks for a client built on ClientKit (`RouteCheck(endpoint:configuration:)`, `VerifiableRouteKind`).
        .library(name: "MockAPIVerifyClientKit", targets: ["MockAPIVerifyClientKit"]),
        .library(name: "MockAPIVerifyCommand", targets: ["MockAPIVerifyCommand"]),
        .library(name: "MockAPITestSupport", targets: ["MockAPITestSupport"]),
        .library(name: "MockAPISessionClient", targets: ["MockAPISessionClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // libmicrohttpd as the system provides it (Debian: libmicrohttpd-dev).
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        // Fixed-arity wrappers for MHD's variadic calls, which Swift cannot import.
        // GnuTLS (libmicrohttpd's own TLS library, installed with libmicrohttpd-dev) for HTTPS details MHD does not expose.
        .target(name: "CMicroHTTPDShims", dependencies: ["CMicroHTTPD"], linkerSettings: [.linkedLibrary("gnutls")]),
        // libcurl (the system's, which FoundationNetworking uses too) for forwarding to a real backend
        // (`record`, `--proxy-unmatched`): bodies byte for byte, a CA file, no redirects followed.
        // Not linked: loaded on first use (lazy_curl.c), so a `serve` never maps its 20 libraries.
        .target(name: "CCurlShims", linkerSettings: [.linkedLibrary("dl")]),
        // zlib (libcurl's own dependency) for recorded answers sent gzip- or deflate-encoded: `record`
        // keeps them decoded, so fixtures can be read, scrubbed of secrets and learnt from.
        .target(name: "CZlibShims", linkerSettings: [.linkedLibrary("z")]),
        // Contracts, route table, validation, responses: no sockets, no C target, testable without a server.
        .target(name: "MockAPICore", dependencies: ["SystemLibc"]),
        // Glibc or Darwin, chosen once for every module that calls POSIX.
        .target(name: "SystemLibc"),
        // The only Swift module that touches libmicrohttpd.
        .target(name: "MockAPIServer", dependencies: ["MockAPICore", "SystemLibc", "CMicroHTTPD", "CMicroHTTPDShims", "CCurlShims"]),
        // A test's own mock session (POST /__mockapi/sessions) from Swift: Foundation only, for iOS UI-test targets.
        .target(name: "MockAPISessionClient"),
        // Decoding errors described for a person (JSON path as the body spells it, strategy hints): ClientKit's and the runner's.
        .target(name: "DecodingDiagnostics"),
        // Generic router-pattern networking layer (module ClientKit, main type APIClient); knows nothing of the bundled API.
        .target(name: "ClientKit", dependencies: ["DecodingDiagnostics"]),
        // The bundled example API's client, built on APIClient.
        .target(name: "ExampleAPI", dependencies: ["ClientKit"]),
        // The contract runner behind `mockapi verify`.
        .target(name: "MockAPIVerify", dependencies: ["MockAPICore", "MockAPIServer", "DecodingDiagnostics"]),
        // The runner's conveniences for ClientKit clients, kept apart so a team without ClientKit does not build it.
        .target(name: "MockAPIVerifyClientKit", dependencies: ["MockAPIVerify", "ClientKit"]),
        // What every command is made of, `mockapi`'s and a team's gate's: output, colour, the shared
        // options (contracts, reports, admin token), a text table and the one failure type.
        .target(
            name: "MockAPICommandKit",
            dependencies: ["MockAPICore", "SystemLibc", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // `verify` and `coverage` as commands: `mockapi` uses them, and so can a team's own gate executable.
        .target(
            name: "MockAPIVerifyCommand",
            dependencies: [
                "MockAPICore", "MockAPICommandKit", "MockAPIVerify", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The bundled client's route kinds as runner checks: what `mockapi verify` runs.
        .target(name: "ExampleAPIChecks", dependencies: ["ExampleAPI", "MockAPIVerifyClientKit"]),
        // `mockapi import` and `mockapi export`: contracts from OpenAPI documents and HAR captures, and back to OpenAPI.
        .target(
            name: "MockAPIImport",
            dependencies: [
                "MockAPICore", "CZlibShims", .product(name: "Yams", package: "Yams"),
            ]),
        // `mockapi diff`: two contract sets compared for the clients that use them (breaking or compatible).
        .target(name: "MockAPIDiff", dependencies: ["MockAPICore", "MockAPIImport"]),
        // `mockapi verify-backend`: each contract's request sent to a real backend, its answer checked against the mock's promise.
        .target(name: "MockAPIBackend", dependencies: ["MockAPICore", "CCurlShims"]),
        // `withMockServer { … }` and friends for tests, ours and a team's.
        .target(name: "MockAPITestSupport", dependencies: ["MockAPICore", "MockAPIServer"]),
        .executableTarget(
            name: "mockapi",
            dependencies: [
                "MockAPICore", "MockAPIServer", "SystemLibc", "MockAPICommandKit", "MockAPIVerifyCommand", "ExampleAPIChecks", "MockAPIImport", "MockAPIDiff", "MockAPIBackend",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: releaseSwiftSettings,
            linkerSettings: releaseLinkerSettings,
            plugins: ["BuildCommit"]
        ),
        // `mockapi --version`'s commit, generated before each build (Plugins/BuildCommit).
        .plugin(name: "BuildCommit", capability: .buildTool()),
        // The verify benchmark's generated client (scripts/bench/verify-speed), a gate built on VerifyCommand.
        .executableTarget(
            name: "verify-bench", dependencies: ["MockAPICore", "MockAPIVerify", "MockAPIVerifyCommand"],
            path: "scripts/bench/VerifyBench"),
        // The README's team: an app client without ClientKit (its router, models, decoder, session) and
        // the README's AppContractChecks; Tests/ContractGate is the README's gate executable on it.
        .target(name: "TeamApp", dependencies: ["MockAPIVerify"], path: "Tests/TeamApp"),
        .executableTarget(name: "contract-gate", dependencies: ["TeamApp", "MockAPIVerifyCommand"], path: "Tests/ContractGate"),
        // A shop client with planted decoder bugs, and its gate: `verify --variants` runs its decoders
        // in a child process (the gate re-executed), so a decoder that traps is reported, not fatal.
        .target(name: "ShopApp", dependencies: ["MockAPIVerify"], path: "Tests/ShopApp"),
        .executableTarget(name: "shop-gate", dependencies: ["ShopApp", "MockAPIVerifyCommand"], path: "Tests/ShopGate"),
        // Every Swift entry point the docs name, used as a team outside the package would: no
        // `package` access, so a documented entry point that is not public fails the build
        // (scripts/public-api-check builds the same files from a package of its own).
        .testTarget(
            name: "PublicAPITests",
            dependencies: ["ClientKit", "MockAPISessionClient", "MockAPITestSupport", "MockAPIVerify", "MockAPIVerifyClientKit", "MockAPIVerifyCommand"],
            packageAccess: false),
        // The README's ClientKit blocks, compiled and run.
        .testTarget(name: "ReadmeClientKitTests", dependencies: ["ClientKit", "MockAPICore", "MockAPITestSupport", "MockAPIVerifyClientKit"]),
        .testTarget(name: "MockAPICoreTests", dependencies: ["MockAPICore", "MockAPITestSupport"]),
        .testTarget(name: "MockAPIServerTests", dependencies: ["MockAPIServer", "MockAPITestSupport", "MockAPICore", "SystemLibc", "MockAPISessionClient"]),
        .testTarget(name: "ClientKitTests", dependencies: ["ClientKit", "DecodingDiagnostics", "MockAPITestSupport", "MockAPICore", "MockAPIServer"]),
        .testTarget(name: "ExampleAPITests", dependencies: ["ExampleAPI", "MockAPITestSupport", "MockAPICore", "MockAPIServer"]),
        .testTarget(
            name: "MockAPIVerifyTests",
            dependencies: [
                "MockAPIVerify", "MockAPIVerifyClientKit", "MockAPIVerifyCommand", "ExampleAPIChecks", "TeamApp", "contract-gate", "ShopApp", "shop-gate", "MockAPITestSupport", "MockAPICore",
                "MockAPIServer",
            ]),
        .testTarget(
            name: "MockAPIImportTests", dependencies: ["MockAPIImport", "MockAPITestSupport", "MockAPICore", "MockAPIServer"],
            exclude: ["Resources"]),
        .testTarget(name: "MockAPIDiffTests", dependencies: ["MockAPIDiff", "MockAPICore", "MockAPITestSupport"]),
        .testTarget(name: "mockapiTests", dependencies: ["mockapi", "MockAPICommandKit", "MockAPITestSupport", "MockAPICore", "MockAPIServer"]),
    ]
)

// Fuzz targets (Fuzz/, run by scripts/fuzz with `-sanitize=fuzzer,address`): in the manifest only
// when MOCKAPI_FUZZ=1, so a plain `swift build` and the test run neither build nor see them.
if Context.environment["MOCKAPI_FUZZ"] == "1" {
    let fuzzTargets: [(String, [Target.Dependency])] = [
        ("FuzzJSON", ["MockAPICore"]), ("FuzzMultipart", ["MockAPICore"]), ("FuzzQuery", ["MockAPICore"]),
        ("FuzzPath", ["MockAPICore"]), ("FuzzContract", ["MockAPICore"]),
        ("FuzzOpenAPI", ["MockAPIImport"]), ("FuzzHAR", ["MockAPIImport"]),
    ]
    // FuzzDriver: the hand-over from SwiftPM's `main` to libFuzzer's driver, once for every target.
    package.targets.append(.target(name: "FuzzDriver", path: "Fuzz/FuzzDriver"))
    for (name, dependencies) in fuzzTargets {
        package.targets.append(.executableTarget(name: name, dependencies: dependencies + ["FuzzDriver"], path: "Fuzz/\(name)"))
    }
}

// Set once here, not per target, so that a target added later has them too (C targets have no Swift).
for target in package.targets where target.type != .system && target.type != .plugin && !["CMicroHTTPDShims", "CCurlShims", "CZlibShims"].contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
