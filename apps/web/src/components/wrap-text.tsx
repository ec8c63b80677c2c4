import type { ReactNode } from 'react';

/**
 * Text in a table cell that wraps, inside a long unbroken word too (a serial number, a site ID), rather than being cut:
 * an ellipsis made "SIM-0…" and "OPS-…" read alike, and a tooltip does not tell rows apart (issue 37).
 */
export function WrapText({ children }: { children: ReactNode }) {
  return <span style={{ overflowWrap: 'anywhere' }}>{children}</span>;
}
