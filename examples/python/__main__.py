"""An OS_TOKEN and the project's balance, from the SDK `pulumi package add` generates (pulumi_costgate)."""

import pulumi
import pulumi_costgate as costgate

cfg = pulumi.Config()

token = costgate.AppCredentialToken(
    "ci",
    application_credential_id=cfg.require("appCredId"),
    application_credential_secret=cfg.require_secret("appCredSecret"),
    renew_before="30m",
)

balance = costgate.get_project_balance_output(project_id=cfg.get_int("projectId") or 4242)
usage = costgate.get_project_consumption_output(project_id=4242, from_="2026-11-01")

pulumi.export("osToken", token.token)  # a secret
pulumi.export("expiresAt", token.expires_at)
pulumi.export("balance", balance.balance)
pulumi.export("spent", usage.total.amount)
