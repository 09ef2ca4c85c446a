/** The UTC calendar day (`YYYY-MM-DD`) of an ISO date-time with any offset: render usage is grouped in UTC. */
export const utcDay = (at: string): string => {
  const time = Date.parse(at);
  if (Number.isNaN(time)) throw new RangeError(`not a date-time: ${at}`);
  return new Date(time).toISOString().slice(0, 10);
};
