import type { PlannedStatement } from './migration-plan';

/** The state store failed while recording progress: not the statement's fault. */
export class StateStoreFailure extends Error {
  constructor(readonly inner: unknown) {
    super(messageOf(inner));
  }
}

/** The request is no longer this attempt's (its lease expired and someone else took it or failed it): stop, record nothing. */
export class OwnershipLost extends Error {
  constructor() {
    super('this executor no longer owns the request');
  }
}

/** A failure of the executor's own making, with one of its codes in place of a SQLSTATE. */
export class ExecutorFault extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class DeadlineReached extends ExecutorFault {
  constructor() {
    super(
      'EXECUTOR_DEADLINE',
      'The executor ran out of time before this statement could start; the migration was stopped and its open transaction rolled back.',
    );
  }
}

/**
 * Not a failure: a batched step stopped between two batches because the executor's time is
 * nearly up, so that a new executor run can go on from the last committed batch.
 */
export class HandOffRequested extends Error {
  constructor(readonly statementIndex: number) {
    super(`statement ${statementIndex + 1} handed to a new executor run`);
  }
}

export const LOCK_NOT_AVAILABLE = '55P03';
/** A deadlock's victim: PostgreSQL rolled its whole transaction back, so a transactional step can run again. */
export const DEADLOCK_DETECTED = '40P01';

interface PgErrorLike {
  code?: string;
  message?: string;
}

/** SQLSTATE of a failure; a failure without one (the connection broke) counts as 08006. */
export const sqlState = (e: unknown): string => {
  if (e instanceof ExecutorFault) return e.code;
  const code = (e as PgErrorLike | undefined)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : '08006';
};

export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A statement failed on the database; `hint` says what the failure left behind when only the runner knows it. */
export class StatementFailure extends Error {
  constructor(
    readonly statement: PlannedStatement,
    readonly pgError: unknown,
    readonly rolledBack: boolean,
    readonly hint: string | null = null,
  ) {
    super(messageOf(pgError));
  }
}
