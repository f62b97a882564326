// Generated from README.md by scripts/readme-snippets: edit the README, then run the script.
// swift-format-ignore-file: the README block is the source; it keeps its own line breaks.
import MockAPIVerifyCommand
import TeamApp

@main enum ContractGate {
    static func main() async {
        await VerifyCommand.main(gate: VerifyGate(name: "contract-gate", packageFile: #filePath),
                                 checks: AppContractChecks.all(), transport: TeamClient().transport)
    }
}
