/**
 * How often each fault of a run happens: the one table the faults draw from (and the docs cite).
 * `perTick` rates are chances per network (or per run, for the workers and receivers) in each
 * step of the workload; the others say per what they are drawn.
 */
export const faultRates = {
  /** A reorganisation of one network, per tick. */
  reorg: 0.07,
  /** Of the reorganisations: the share deeper than every tenant's block rule, and the share of shallow ones (1 to 3 blocks); the rest lie between. */
  reorgDeep: 0.3,
  reorgShallow: 0.4,
  /** Of the reorganisations: the share that leaves some of the dropped blocks' transactions out, each with even odds. */
  reorgDropsTransactions: 0.5,
  /** Of the reorganisations, when a reversible block holds a sweep's transaction: the share aimed at such a block (dropping it and those above). */
  reorgAimedAtSweep: 0.4,
  /** The node answering 503 for a while (`error`), or holding every request past the adapter's timeout (`timeout`), per tick. */
  nodeOutage: 0.025,
  /** The node holding every request for less than the adapter's timeout, per tick. */
  nodeSlow: 0.04,
  /** The node carrying out the next calls and losing their replies, per tick. */
  nodeLostReplies: 0.04,
  /**
   * One node of a network's set (not the simulator behind them all) lagging past the failover's
   * lag limit, serving another fork above the solidified block, or down, per tick each; each
   * holds its node for a number of ticks between the two of `nodeFaultTicks`.
   */
  nodeLagging: 0.05,
  nodeForked: 0.05,
  nodeDown: 0.05,
  nodeFaultTicks: [3, 15] as const,
  /** The next broadcast answered with success and lost, per tick. */
  broadcastLost: 0.04,
  /** The next broadcast kept out of blocks for a few blocks, per tick. */
  broadcastDelayed: 0.04,
  /** The next broadcast kept out of blocks until it has expired, per tick. */
  broadcastExpired: 0.02,
  /**
   * The energy provider's next orders meeting one of its faults (slow, under-delivery, failure,
   * rejection, lost answer; or on the line to it, a call lost before the order, its look-up down), per tick.
   */
  provider: 0.06,
  /** A receiver (one tenant's app) down for a while, per tick. */
  receiverOutage: 0.03,
  /** One webhook request answered badly, per request outside an outage: a 500, no answer in time, a refused connection. */
  receiverServerError: 0.06,
  receiverTimeout: 0.03,
  receiverRefused: 0.03,
  /** A worker dying at one of the engine's checkpoints, per checkpoint reached. */
  checkpointCrash: 0.01,
  /** A worker dying right after an order call answered, per order call. */
  afterOrderCrash: 0.2,
  /** A power cut of a live worker between rounds, per tick. */
  powerCut: 0.03,
  /** A power cut of a live worker at a random moment while its passes run, per worker per round. */
  midRoundCut: 0.03,
  /**
   * On PostgreSQL only: the connection cut at one statement of a money-moving step
   * (`ConnectionCuts.ts`), per run of the step, the n-th run of a step in a run with chance
   * `connectionCuts / n`, at most `connectionCutMost`: a step a run makes hundreds of times (the
   * sweeper's claim, the scanner's block store) is cut about as often as one it makes a few
   * times (a finish, a reversal), about 2 ln n times a run.
   */
  connectionCuts: 2,
  connectionCutMost: 0.5
} as const

export type FaultRate = keyof typeof faultRates
