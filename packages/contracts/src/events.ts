import { z } from 'zod';

/**
 * Live events (issue 23): what the server pushes on GET /api/events (Server-Sent Events) so the console's pages update
 * without a reload. Each names what changed, not the new data: the page asks for that again through its usual call, so
 * the usual team checks and shapes apply. Events of one station within a short window arrive as one.
 */
export const LIVE_EVENT_TYPES = ['ipp', 'roi', 'alarm'] as const;

export const LiveEventSchema = z.discriminatedUnion('type', [
  /** A station's state changed: telemetry, online/offline, configuration saved or applied. */
  z.object({
    type: z.literal('ipp'),
    ipp_id: z.number().int(),
    reasons: z.array(z.enum(['telemetry', 'status', 'config', 'applied'])),
    at: z.number().int(),
  }),
  /** New images of a station: how many since the last event, and the newest one's id. */
  z.object({
    type: z.literal('roi'),
    ipp_id: z.number().int(),
    count: z.number().int(),
    last_roi_id: z.number().int(),
    at: z.number().int(),
  }),
  /** An alarm of a station was raised, acknowledged or cleared. */
  z.object({
    type: z.literal('alarm'),
    ipp_id: z.number().int(),
    at: z.number().int(),
  }),
]);
export type LiveEvent = z.infer<typeof LiveEventSchema>;

/** How often the stream sends a comment line when nothing happens, so proxies keep it open and clients see it alive. */
export const LIVE_HEARTBEAT_MS = 20_000;
