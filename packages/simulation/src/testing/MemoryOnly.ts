/**
 * The seed-sweeping tests (the plants' first seeds, the workload's reach) run the simulated
 * service on the memory store whatever `DATABASE_URL` names. CI's second test run, pointed at the
 * PostgreSQL server, would repeat them unchanged at a quarter of its time, so there they skip;
 * the first run and `npm run simulate` run them (docs/testing.md).
 */
export const repeatedOnServer = process.env.DATABASE_URL !== undefined && process.env.DATABASE_URL !== ""
