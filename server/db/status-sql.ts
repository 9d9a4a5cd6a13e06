import { sql, type SQL } from 'drizzle-orm';
import { liveStatuses } from '../../contract/subscription-status';

/**
 * The contract's live statuses as SQL (`status in (1, 3)`), for queries built at run time. The
 * triggers and partial indexes that migrations wrote with the same list are checked against the
 * contract by tests/server/status-sets.test.ts, so the two cannot drift apart unnoticed.
 */
export const LIVE_STATUS_LIST: SQL = sql.raw(liveStatuses.join(', '));

export function isLiveSql(status: SQL): SQL {
  return sql`(${status} in (${LIVE_STATUS_LIST}))`;
}
