import type { IppConfig } from '@ipp/contracts';
import { parseStoredConfig } from '../device/device.service.ts';

/** A configuration version as the history keeps it (ipp_config_history). */
export interface ConfigVersion {
  version: number;
  config: string;
  changed_at: number | string;
  applied_at: number | string | null;
}

/** The configuration an instrument ran at some time, and whether the device confirmed running it. */
export interface ConfigInForce {
  version: number;
  config: IppConfig;
  /** true: the device reported running this version before that time; false: the console had sent it, unconfirmed. */
  confirmed: boolean;
}

/**
 * The settings in force over time (docs/ecotaxa.md "Acquisitions"): a version counts from when the device reported
 * running it, or, for a version it never confirmed, from when the console sent it; the first version also counts,
 * unconfirmed, from when it was sent until the device confirms it. Before the first version (the history starts when
 * the console began keeping it), nothing is known: null.
 */
export function configTimeline(versions: readonly ConfigVersion[]): (time: number) => ConfigInForce | null {
  const steps = versions
    .map((v) => ({
      from: Number(v.applied_at ?? v.changed_at),
      version: v.version,
      confirmed: v.applied_at !== null,
      text: v.config,
    }))
    .sort((a, b) => a.from - b.from || a.version - b.version);
  // Between the first version being sent and the device confirming it, nothing else can have been in force: that
  // version, unconfirmed.
  const first = [...versions].sort((a, b) => a.version - b.version)[0];
  if (first && steps[0] && Number(first.changed_at) < steps[0].from)
    steps.unshift({ from: Number(first.changed_at), version: first.version, confirmed: false, text: first.config });
  const parsed = new Map<number, IppConfig>();
  return (time) => {
    let lo = 0;
    let hi = steps.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (steps[mid]!.from <= time) lo = mid + 1;
      else hi = mid;
    }
    const step = steps[lo - 1];
    if (!step) return null;
    if (!parsed.has(step.version)) parsed.set(step.version, parseStoredConfig(step.text));
    return { version: step.version, config: parsed.get(step.version)!, confirmed: step.confirmed };
  };
}
