// What the global test setup hands to every test file.
declare module "vitest" {
  export interface ProvidedContext {
    databaseAdminUrl: string
    /** The migrated database each test file's database is copied from. */
    databaseTemplate: string
  }
}

export {}
