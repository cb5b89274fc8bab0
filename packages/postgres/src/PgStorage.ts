import { Layer } from "effect"
import * as PgAccessTokenRepository from "./PgAccessTokenRepository.js"
import * as PgAutomationLedger from "./PgAutomationLedger.js"
import * as PgBalanceLedger from "./PgBalanceLedger.js"
import * as PgComponentStatus from "./PgComponentStatus.js"
import * as PgDelegationLedger from "./PgDelegationLedger.js"
import * as PgFeeLedger from "./PgFeeLedger.js"
import * as PgResourceAccounts from "./PgResourceAccounts.js"
import * as PgConsoleQueries from "./PgConsoleQueries.js"
import * as PgDeliveryLedger from "./PgDeliveryLedger.js"
import * as PgDepositBook from "./PgDepositBook.js"
import * as PgDepositRepository from "./PgDepositRepository.js"
import * as PgIdempotencyStore from "./PgIdempotencyStore.js"
import * as PgNotificationRepository from "./PgNotificationRepository.js"
import * as PgOperatorAuditLog from "./PgOperatorAuditLog.js"
import * as PgOperatorTokenRepository from "./PgOperatorTokenRepository.js"
import * as PgScanLedger from "./PgScanLedger.js"
import * as PgSealedValues from "./PgSealedValues.js"
import * as PgSettingsRepository from "./PgSettingsRepository.js"
import * as PgStorageProbe from "./PgStorageProbe.js"
import * as PgSweepRepository from "./PgSweepRepository.js"
import * as PgTenantRepository from "./PgTenantRepository.js"
import * as PgWalletRepository from "./PgWalletRepository.js"
import * as PgWalletKeyDirectory from "./PgWalletKeyDirectory.js"

/** Every storage port of the core on the SqlClient provided (one database, one pool). */
export const PgStorage = Layer.mergeAll(
  PgTenantRepository.layer,
  PgAccessTokenRepository.layer,
  PgIdempotencyStore.layer,
  PgWalletRepository.layer,
  PgWalletKeyDirectory.layer,
  PgSettingsRepository.layer,
  PgScanLedger.layer,
  PgDepositBook.layer,
  PgDepositRepository.layer,
  PgBalanceLedger.layer,
  PgSweepRepository.layer,
  PgAutomationLedger.layer,
  PgNotificationRepository.layer,
  PgDeliveryLedger.layer,
  PgComponentStatus.layer,
  PgStorageProbe.layer,
  PgSealedValues.layer,
  PgDelegationLedger.layer,
  PgFeeLedger.layer,
  PgResourceAccounts.layer,
  PgOperatorTokenRepository.layer,
  PgOperatorAuditLog.layer,
  PgConsoleQueries.layer
)
