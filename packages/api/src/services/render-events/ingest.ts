import {
  type FieldErrors,
  parseOrThrow,
  type RenderEvent,
  RenderEventBatch,
  ValidationError,
} from '@platform/core';
import { ingestRenderEvents as storeRenderEvents } from '@platform/store';
import type { Service } from '../context.ts';

/** `body` is the request's array of render events (docs/data-file.md). */
export type IngestRenderEventsInput = { body: readonly RenderEvent[] | unknown };
export type IngestRenderEventsOutput = { accepted: number };

/** Store errors name elements `[i].field`; the transports name the body `body`, so do the same. */
const asBodyErrors = (errors: FieldErrors | undefined): FieldErrors | undefined =>
  errors &&
  Object.fromEntries(
    Object.entries(errors).map(([key, value]) => [key.startsWith('[') ? `body${key}` : key, value]),
  );

/**
 * `POST /api/v1/render-events` (token role `platform:ingest`, checked by the transport): adds the events to the
 * daily roll-up, all or nothing; an unknown environment guid rejects the batch with 400 naming the element.
 */
export const ingestRenderEvents: Service<IngestRenderEventsInput, IngestRenderEventsOutput> = async (
  ctx,
  input,
) => {
  const events = parseOrThrow(RenderEventBatch, input.body, 'list of render events');
  try {
    const accepted = await storeRenderEvents(ctx.database, events);
    ctx.log.debug({ accepted }, 'render events ingested');
    return { accepted };
  } catch (error) {
    if (error instanceof ValidationError)
      throw new ValidationError(error.message, asBodyErrors(error.errors));
    throw error;
  }
};
