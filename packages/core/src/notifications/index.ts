export * from "./DeliverySchedule"
export * from "./EventTypes"
