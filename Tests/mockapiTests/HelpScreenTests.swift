import ArgumentParser
import MockAPITestSupport
import MockAPIVerifyCommand
import Testing

@testable import mockapi

/// The help screens people read most, pinned in process: a changed flag, default or wording
/// shows here as a line diff.
struct HelpScreenTests {
    private func help(_ command: any ParsableCommand.Type) -> String {
        MockAPICommand.helpMessage(for: command, columns: 80)
    }

    /// Grouped by what a flag is about, with examples: 96 lines in one list read as none.
    @Test func serveHelpIsPinned() {
        expectPinned(
            help(MockAPICommand.Serve.self),
            """
            OVERVIEW: Serve the contract set over HTTP until SIGINT or SIGTERM.

            The first stdout line is `mockapi listening on URL (N routes)`; each request is
            logged on stderr.

            Examples:
              mockapi serve                          ./contracts on 127.0.0.1:8080
              mockapi serve --watch --port 0         reload on edits; a free port
              mockapi serve --openapi openapi.yaml   an OpenAPI document as it is
              mockapi serve --delay 200-800 --cors   slow answers a web page can read
              mockapi serve --host 0.0.0.0 --admin-token "$TOKEN"
                                                     reachable from a phone
              mockapi serve --log-format json        every stderr line a JSON object

            USAGE: mockapi serve <options>

            WHAT TO SERVE:
              --contracts <contracts> Folder of contract files (*.json); $MOCKAPI_CONTRACTS
                                      when not given. (default: contracts)
              --fixtures <fixtures>   Folder the contracts' fixture paths are relative to;
                                      $MOCKAPI_FIXTURES when not given. (default: fixtures)
              --openapi <file>        Serve this OpenAPI 3.0/3.1 document (JSON or YAML)
                                      instead of a contract set: it is imported at start,
                                      its warnings printed; with --watch, an edit to it or
                                      to a file its $refs reach is imported again.
              --watch                 Reload the set when a contract or fixture changes, or
                                      the --openapi document (a broken edit keeps the
                                      previous set serving).

            LISTENING:
              --host <host>           Address to listen on: an IPv4 or IPv6 literal, or a
                                      name such as localhost (default: 127.0.0.1, or
                                      $MOCKAPI_HOST).
              -p, --port <port>       Port to listen on; 0 picks a free one (default: 8080,
                                      or $MOCKAPI_PORT).
              --tls-cert <file>       Serve HTTPS with this PEM certificate (chain); needs
                                      --tls-key.
              --tls-key <file>        The PEM private key of --tls-cert.
              --tls-self-signed       Serve HTTPS with a certificate for localhost and
                                      127.0.0.1 made at start (with openssl); its path is
                                      printed.

            LIMITS:
              --max-body-bytes <max-body-bytes>
                                      Largest request body accepted, in bytes; larger ones
                                      get 413. (default: 33554432)
              --max-json-bytes <max-json-bytes>
                                      Largest JSON request body accepted, in bytes (JSON is
                                      buffered whole to be checked); larger ones get 413.
                                      (default: 1048576)
              --max-buffered-bytes <max-buffered-bytes>
                                      Bytes of JSON bodies held at once across all
                                      connections; a body past it gets 503. (default:
                                      67108864)
              --min-body-rate <min-body-rate>
                                      Bytes per second a request body must average, from 2
                                      s after its headers; a slower one gets 408 and is
                                      closed (0: no minimum). (default: 1024)
              --timeout <timeout>     Seconds before an idle connection is closed.
                                      (default: 30)
              --max-connections <max-connections>
                                      Most connections open at once. (default: 1024)
              --max-connections-per-ip <max-connections-per-ip>
                                      Most connections open at once from one client
                                      address. (default: 256)
              --header-timeout <header-timeout>
                                      Seconds a connection may take to send a request's
                                      headers, however slowly they trickle in (0: no
                                      limit). (default: 10)
              --threads <threads>     Worker threads (default: one per core).

            ANSWERS:
              --delay <delay>         Delay every contract answer, in milliseconds: 800, a
                                      range 200-800, or lognormal:MEDIAN:SIGMA.
              --max-delay <max-delay> The longest delay served, in milliseconds (up to
                                      3600000): a Prefer: delay above it gets 422, longer
                                      contract delays are cut to it. (default: 60000)
              --cors                  Answer CORS preflights and add
                                      Access-Control-Allow-Origin: * to every answer, for
                                      pages in a browser.
              --proxy-unmatched <url> Send requests no contract matches to this backend
                                      (http or https) and return its answer, instead of a
                                      404; they are journaled as proxied, so coverage
                                      reports them as uncovered.
              --proxy-ca-file <file>  PEM file of the CAs to trust for an HTTPS backend
                                      (--proxy-unmatched, record's --target; default: the
                                      system's).
              --proxy-timeout <proxy-timeout>
                                      Seconds a backend may take to start its answer before
                                      the client gets 504, and then to go quiet mid-body
                                      before the client's connection is closed (1 to 3600).
                                      (default: 30)

            JOURNAL, LOG AND ADMIN ENDPOINTS:
              --journal-size <journal-size>
                                      Requests the journal keeps (GET /__mockapi/requests).
                                      (default: 10000)
              --journal-bytes <journal-bytes>
                                      Bytes of requests the journal keeps at most; the
                                      oldest go first. (default: 67108864)
              --max-sessions <max-sessions>
                                      Sessions alive at once (POST /__mockapi/sessions; its
                                      own sequences, resources and journal); past it, 429
                                      with Retry-After. (default: 1000)
              --session-idle-timeout <seconds>
                                      Seconds without a request after which a session ends
                                      (up to 86400). (default: 1800)
              --journal-secrets       Journal and log credential headers as sent
                                      (Authorization, Cookie, *token*, *secret*,
                                      *api-key*…: redacted by default).
              --redact-header <name>  Also redact this request header in the journal and
                                      log; repeatable (and $MOCKAPI_REDACT_HEADERS,
                                      comma-separated).
              --admin-token <admin-token>
                                      Admin endpoints (/__mockapi/) need the header
                                      Mockapi-Admin-Token with this value.
              --quiet                 No per-request log lines on stderr.
              --log-format <log-format>
                                      Request log lines on stderr: text, or json (one
                                      object per line). (values: text, json; default: text)
              --verbose               Log each request's headers (and the headers its
                                      response sets) under its line.

            OPTIONS:
              --version               Show the version.
              -h, --help              Show help information.

            """)
    }

    @Test func verifyHelpIsPinned() {
        expectPinned(
            help(MockAPICommand.Verify.self),
            """
            OVERVIEW: Fire every route of the client at the server and check each against
            its contract.

            Each route's request is built by the client's own code and sent as built; the
            answer is decoded with the client's own decoder. Exit status: 0 when every
            check holds, 1 when any fails, 2 when the inputs are unusable.

            USAGE: mockapi verify [--contracts <contracts>] [--fixtures <fixtures>] [--format <format>] [--junit <junit>] [--base-url <base-url>] [--admin-token <admin-token>] [--scope <scope>] [--contract <contract> ...] [--strict] [--strict-coverage] [--strict-drift] [--variants] [--strict-variants]

            OPTIONS:
              --contracts <contracts> Folder of contract files (*.json); $MOCKAPI_CONTRACTS
                                      when not given. (default: contracts)
              --fixtures <fixtures>   Folder the contracts' fixture paths are relative to;
                                      $MOCKAPI_FIXTURES when not given. (default: fixtures)
              --format <format>       Report format on stdout: text or json. (values: text,
                                      json; default: text)
              --junit <junit>         Also write a JUnit XML report to this file (missing
                                      folders are created).
              --base-url <base-url>   Check a running `mockapi serve` at this URL instead
                                      of starting one in-process.
              --admin-token <admin-token>
                                      The server's --admin-token (sent as
                                      Mockapi-Admin-Token to its /__mockapi/ endpoints).
              --scope <scope>         Contracts the client answers for: all, or only those
                                      its routes claim. (values: all, claimed; default: all)
              --contract <contract>   Answer only for this contract (repeat for several);
                                      overrides --scope.
              --strict                The gate most teams want: the same as
                                      --strict-coverage (drift fails only with
                                      --strict-drift).
              --strict-coverage       Fail on contracts in scope that no route exercises.
              --strict-drift          Fail on fixture keys the client's models never read.
              --variants              Also decode the rare answers each response's schema
                                      allows (optional key absent, null, each enum value,
                                      ...); report those the client cannot decode.
              --strict-variants       Fail on rare answers the client cannot decode
                                      (implies --variants).
              --version               Show the version.
              -h, --help              Show help information.

            """)
    }

    @Test func coverageHelpIsPinned() {
        expectPinned(
            help(CoverageCommand.self),
            """
            OVERVIEW: Read a running server's journal: fail on requests that matched no
            contract or broke one.

            Exit status: 0 when every journaled request kept a contract, 1 otherwise (also
            when no request reached the server, or, with --strict, when a contract was
            never exercised), 2 when a server cannot be read.

            USAGE: mockapi coverage [--format <format>] [--junit <junit>] --base-url <base-url> ... [--session <id> ...] [--all-sessions] [--admin-token <admin-token>] [--since <since>] [--strict]

            OPTIONS:
              --format <format>       Report format on stdout: text or json. (values: text,
                                      json; default: text)
              --junit <junit>         Also write a JUnit XML report to this file (missing
                                      folders are created).
              --base-url <base-url>   A running `mockapi serve` whose journal to read;
                                      repeat it to read several instances (behind a
                                      balancer) as one report.
              --session <id>          Read this session's journal instead of the
                                      server-wide one, from whichever --base-url has it
                                      (repeatable).
              --all-sessions          Read every live session's journal as well as the
                                      server-wide one.
              --admin-token <admin-token>
                                      The server's --admin-token (sent as
                                      Mockapi-Admin-Token to its /__mockapi/ endpoints).
              --since <since>         Only requests after this journal id (a run that
                                      started mid-journal). (default: 0)
              --strict                Also fail when a contract was never exercised.
              --version               Show the version.
              -h, --help              Show help information.

            """)
    }

    /// What a failing pin prints: the changed lines and their neighbours, not two whole strings.
    @Test func aPinThatFailsSaysWhichLinesDiffer() {
        let pinned = "OVERVIEW: a\n\nUSAGE: x\n\nOPTIONS:\n  --one\n  --two\n  --three\n  --four\n  --five\n  --six"
        let actual = "OVERVIEW: a\n\nUSAGE: x\n\nOPTIONS:\n  --one\n  --two\n  --3\n  --four\n  --five\n  --six\n  --seven"
        #expect(
            LineDiff.render(from: pinned, to: actual) == """
                …
                    --one
                    --two
                -   --three
                +   --3
                    --four
                    --five
                    --six
                +   --seven
                """)
    }
}
