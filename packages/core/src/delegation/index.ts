export * from "./DelegationLedger.js"
export * from "./DelegationTransitions.js"
export * from "./EnergyDelegation.js"
export * from "./StakeForEnergy.js"
