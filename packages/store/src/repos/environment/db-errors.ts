/** Whether a database error (or one it wraps) carries `sqlState`, on either driver. */
const hasSqlState = (error: unknown, sqlState: string): boolean => {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if ((e as { code?: unknown }).code === sqlState) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
};

/** A unique violation (SQLSTATE 23505). */
export const isUniqueViolation = (error: unknown): boolean => hasSqlState(error, '23505');

/** A foreign key violation (SQLSTATE 23503): the row names one that is gone. */
export const isForeignKeyViolation = (error: unknown): boolean => hasSqlState(error, '23503');
