import { DataFile, MALFORMED_TEXT_MESSAGE, malformedTextErrors, RenderEvent } from '@platform/core';
import { z } from 'zod';
import { turnBudget } from './turn-budget.ts';

/** Render events checked per schema call: well under a millisecond, so that a turn ends close to its budget. */
const EVENTS_PER_SLICE = 250;

const RenderEvents = z.array(RenderEvent);

/** U+0000 and lone surrogates anywhere in `value` (docs/errors.md), as issues named by `name(path)`. */
const textIssues = (value: unknown, name: (path: string) => string): z.core.$ZodIssue[] =>
  Object.keys(malformedTextErrors(value)).map((path) => ({
    code: 'custom',
    // One segment holding the whole formatted path: formatPath gives it back as it is.
    path: [name(path)],
    message: MALFORMED_TEXT_MESSAGE,
    input: undefined,
  }));

/**
 * `DataFile.safeParse`, plus the text rule every input follows (no U+0000, no unpaired surrogate), without holding
 * the process: a data file's render history (up to millions of events) is checked in slices, a few milliseconds of
 * them per turn of the event loop, so a server importing a large file keeps answering. Issues keep their paths in the whole file
 * (`renderEvents[123456].at`).
 */
export const parseDataFile = async (
  input: unknown,
): Promise<{ success: true; data: DataFile } | { success: false; error: z.ZodError }> => {
  const raw = (input as { renderEvents?: unknown } | null)?.renderEvents;
  const events = Array.isArray(raw) ? raw : [];
  const others = Array.isArray(raw) ? { ...(input as object), renderEvents: [] } : input;
  const rest = DataFile.safeParse(others);
  const issues = [...textIssues(others, (path) => path), ...(rest.success ? [] : rest.error.issues)];
  const parsed: RenderEvent[] = [];
  const turn = turnBudget();
  for (let start = 0; start < events.length; start += EVENTS_PER_SLICE) {
    if (turn.spent()) await turn.next();
    const slice = events.slice(start, start + EVENTS_PER_SLICE);
    // `[3].kind` of the slice is `renderEvents[start + 3].kind` of the file.
    const named = (path: string) =>
      `renderEvents${path.replace(/^\[(\d+)\]/, (_, i: string) => `[${start + Number(i)}]`)}`;
    issues.push(...textIssues(slice, named));
    const checked = RenderEvents.safeParse(slice);
    if (checked.success) parsed.push(...checked.data);
    else
      for (const issue of checked.error.issues) {
        const [index, ...path] = issue.path;
        issues.push({ ...issue, path: ['renderEvents', start + Number(index), ...path] });
      }
  }
  if (issues.length > 0 || !rest.success) return { success: false, error: new z.ZodError(issues) };
  return { success: true, data: { ...rest.data, renderEvents: parsed } };
};
