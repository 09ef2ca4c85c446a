import { setImmediate as nextTurn } from 'node:timers/promises';
import { DataFile, RenderEvent } from '@platform/core';
import { z } from 'zod';

/** Render events checked per turn of the event loop: a few milliseconds of work. */
const EVENTS_PER_TURN = 5000;

const RenderEvents = z.array(RenderEvent);

/**
 * `DataFile.safeParse`, without holding the process: a data file's render history (up to millions of events) is
 * checked a slice per turn of the event loop, so a server importing a large file keeps answering. Issues keep
 * their paths in the whole file (`renderEvents[123456].at`).
 */
export const parseDataFile = async (
  input: unknown,
): Promise<{ success: true; data: DataFile } | { success: false; error: z.ZodError }> => {
  const events = (input as { renderEvents?: unknown } | null)?.renderEvents;
  if (!Array.isArray(events) || events.length <= EVENTS_PER_TURN) return DataFile.safeParse(input);
  const rest = DataFile.safeParse({ ...(input as object), renderEvents: [] });
  const issues = rest.success ? [] : [...rest.error.issues];
  const parsed: RenderEvent[] = [];
  for (let start = 0; start < events.length; start += EVENTS_PER_TURN) {
    await nextTurn();
    const slice = RenderEvents.safeParse(events.slice(start, start + EVENTS_PER_TURN));
    if (slice.success) parsed.push(...slice.data);
    else
      for (const issue of slice.error.issues) {
        const [index, ...path] = issue.path;
        issues.push({ ...issue, path: ['renderEvents', start + Number(index), ...path] });
      }
  }
  if (issues.length > 0 || !rest.success) return { success: false, error: new z.ZodError(issues) };
  return { success: true, data: { ...rest.data, renderEvents: parsed } };
};
