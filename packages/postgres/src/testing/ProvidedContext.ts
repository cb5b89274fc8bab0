// What the global test setup hands to every test file.
declare module "vitest" {
  export interface ProvidedContext {
    databaseAdminUrl: string
  }
}

export {}
