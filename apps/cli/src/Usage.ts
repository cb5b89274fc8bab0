export const usage = `Usage: npm run cli -- <command>

Tenants (each tenant has one app credential per network; secrets are printed once):
  tenant create --name <name> --networks nile,main [--json]
  tenant list [--json]
  tenant disable <tenant>
  tenant enable <tenant>
  tenant delete <tenant>
  tenant expire <tenant> --at <RFC 3339 time | never>
  tenant rotate-secret <tenant> --network <nile|main> [--json]
  tenant rotate-webhook-key <tenant> --network <nile|main> [--json]
  tenant set-confirmation <tenant> --network <nile|main> --rule <block_1|block_3|block_6|block_12|solidified>
  tenant set-deposit-minimum <tenant> --network <nile|main> --amount <base units | none>

Wallet keys (where each wallet's key is held; never the key itself):
  tenant wallets <tenant> --network <nile|main> [--store local|pkcs11] [--json]

Resource accounts (staked TRX lent as energy to sweeps; see docs/fees.md, "Own stake"):
  resource-account list [--json]
  resource-account show --network <nile|main> [--tenant <id or name>] [--json]   with its energy stake from the node
  resource-account create --network <nile|main> [--tenant <id or name>] [--store local|pkcs11] [--json]
                         pkcs11: the key made in the token of PKCS11_MODULE, PKCS11_TOKEN_LABEL|PKCS11_SLOT,
                         PKCS11_PIN_FILE|PKCS11_PIN, labelled <PKCS11_LABEL_PREFIX>resource-<network>-<tenant|default>
  resource-account stake --network <nile|main> [--tenant <id or name>] --trx <TRX, up to 6 decimals, >= 1>
                         [--resource energy|bandwidth] [--json]
  resource-account unstake (as stake)         starts unstaking; the TRX is back after the unfreeze delay
                                              (both use the node of TRON_<NETWORK>_NODE_URL(S), and sign
                                              with the account's key: sealed, or in the token of PKCS11_*)

Fees (the fee ledger's totals over a period of block times; see docs/fees.md, "The fee ledger"):
  fees --tenant <id or name> [--network nile|mainnet] --since <ISO date> [--until <ISO date>] [--json]

Master keys (see docs/deployment.md, "Rotating the master key"):
  keys status [--json]                        values sealed under each master key id
  keys reseal [--batch-size <n>] [--json]     re-seal every value under MASTER_KEY (online,
                                              resumable; default batches of 500)

Operator console tokens (docs/operations.md, "The console"; the token is printed once):
  operator token create [--ttl <days, default 30>] [--json]
  operator token list [--json]
  operator token revoke <id> [--json]

<tenant> is a tenant ID or a tenant name. The CLI uses the service's database: DATABASE_URL
and MASTER_KEY when set, otherwise the embedded database and key under .data/ (shared with a
running service).`
