package import ArgumentParser

/// `--admin-token`, for a server started with one.
package struct AdminTokenOption: ParsableArguments {
    @Option(help: "The server's --admin-token (sent as Mockapi-Admin-Token to its /__mockapi/ endpoints).")
    package var adminToken: String?

    package init() {}
}
