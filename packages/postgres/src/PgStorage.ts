import { Layer } from "effect"
import * as PgAccessTokenRepository from "./PgAccessTokenRepository"
import * as PgAutomationLedger from "./PgAutomationLedger"
import * as PgBalanceLedger from "./PgBalanceLedger"
import * as PgComponentStatus from "./PgComponentStatus"
import * as PgDeliveryLedger from "./PgDeliveryLedger"
import * as PgDepositBook from "./PgDepositBook"
import * as PgDepositRepository from "./PgDepositRepository"
import * as PgIdempotencyStore from "./PgIdempotencyStore"
import * as PgNotificationRepository from "./PgNotificationRepository"
import * as PgScanLedger from "./PgScanLedger"
import * as PgSettingsRepository from "./PgSettingsRepository"
import * as PgStorageProbe from "./PgStorageProbe"
import * as PgSweepRepository from "./PgSweepRepository"
import * as PgTenantRepository from "./PgTenantRepository"
import * as PgWalletRepository from "./PgWalletRepository"

/** Every storage port of the core on the SqlClient provided (one database, one pool). */
export const PgStorage = Layer.mergeAll(
  PgTenantRepository.layer,
  PgAccessTokenRepository.layer,
  PgIdempotencyStore.layer,
  PgWalletRepository.layer,
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
  PgStorageProbe.layer
)
