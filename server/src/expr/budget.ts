// A work budget for symbolic computations (issue 10, section 4: every analysis step is bounded).
// The costly primitives (polynomial products and normalisation) `spend` units of work; `withBudget`
// runs a computation under a budget and a `BudgetError` ends it when the budget is spent, so a query
// whose expressions explode (`L.inv(N)` over a 3-D OrderBy, say) fails with a message instead of
// running for ever. Outside `withBudget` nothing is counted. Budgets nest: the inner one is the
// smaller of its own and what the outer one has left, and its spending counts for the outer one.
export class BudgetError extends Error {
  constructor(readonly budget: number) {
    super(`the symbolic computation needed more than its budget of ${budget.toLocaleString('en-US')} steps`);
    this.name = 'BudgetError';
  }
}

let remaining = Infinity;
let current = Infinity;
/** `withInterrupt`'s poll, and the units of work until it is asked again */
let interrupt: (() => boolean) | undefined;
let untilPoll = 0;
/**
 * units of work between two polls of `withInterrupt` (a budget of 200,000 is about 0.2 s, so 64 are well
 * under a tenth of a millisecond; only polynomial products and normalisation spend, so between two
 * polls other work may run too: a cold matmul kernel's evaluation, about 10 ms, polled about 10 times)
 */
const POLL_EVERY = 64;

/** Counts `n` units of work; throws BudgetError when the running budget is spent, or when `withInterrupt`'s poll says stop. */
export function spend(n: number): void {
  if (interrupt !== undefined) {
    untilPoll -= n;
    if (untilPoll <= 0) {
      untilPoll = POLL_EVERY;
      if (interrupt()) throw new BudgetError(current);
    }
  }
  if (remaining === Infinity) return;
  remaining -= n;
  if (remaining < 0) {
    remaining = 0;
    throw new BudgetError(current);
  }
}

/** Runs `f` with at most `steps` units of work (see the file comment). */
export function withBudget<T>(steps: number, f: () => T): T {
  const outerRemaining = remaining;
  const outerCurrent = current;
  const mine = Math.min(steps, outerRemaining);
  remaining = mine;
  current = mine === steps ? steps : outerCurrent;
  try {
    return f();
  } finally {
    const used = mine - remaining;
    remaining = outerRemaining === Infinity ? Infinity : Math.max(0, outerRemaining - used);
    current = outerCurrent;
  }
}

/**
 * Runs `f` with `poll` asked every `POLL_EVERY` units of work (`spend`): when it says stop, the
 * computation ends as a spent budget does (a BudgetError, which its caller reports as a failure). The
 * caller must then ask `poll` itself and throw the failed result away: the editor's analysis worker
 * stops an evaluation of kernels inside a symbolic computation when a newer job arrives, not at its
 * end. Outside it nothing is polled.
 */
export function withInterrupt<T>(poll: (() => boolean) | undefined, f: () => T): T {
  if (!poll) return f();
  const outer = interrupt;
  const outerUntil = untilPoll;
  interrupt = poll;
  untilPoll = POLL_EVERY;
  try {
    return f();
  } finally {
    interrupt = outer;
    untilPoll = outerUntil;
  }
}
