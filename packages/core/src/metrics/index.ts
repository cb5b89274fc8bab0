export * from "./MetricFamily.js"
