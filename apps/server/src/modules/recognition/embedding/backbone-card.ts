import fs from 'node:fs';
import path from 'node:path';
import type { BackboneCard } from '@ipp/contracts';
import { BACKBONE_DIR } from './backbone.ts';
import { BACKBONE_VERSION } from '../vector.ts';

export interface TrainingLog {
  held_out_count?: number;
  balanced_held_out_count?: number;
  epochs: { held_out_top1?: number; held_out_balanced?: number; balanced_set_top1?: number; balanced_set_balanced?: number }[];
}

/** A training log's figures: its last measured epoch (null fields where that epoch measured none). */
export function cardFromLog(log: TrainingLog, version: string): BackboneCard {
  const last = [...log.epochs].reverse().find((e) => e.held_out_top1 !== undefined || e.balanced_set_balanced !== undefined);
  return {
    version,
    held_out_images: log.balanced_held_out_count ?? 0,
    balanced_accuracy: last?.balanced_set_balanced ?? null,
    top1: last?.balanced_set_top1 ?? null,
    natural_images: log.held_out_count ?? 0,
    natural_top1: last?.held_out_top1 ?? null,
    natural_balanced_accuracy: last?.held_out_balanced ?? null,
  };
}

let cached: BackboneCard | null | undefined;

/** The committed backbone's card (its training.json), read once; null when the file is missing or unreadable. */
export function backboneCard(): BackboneCard | null {
  if (cached === undefined) {
    try {
      const log = JSON.parse(fs.readFileSync(path.join(BACKBONE_DIR, 'training.json'), 'utf8')) as TrainingLog;
      cached = cardFromLog(log, BACKBONE_VERSION);
    } catch {
      cached = null;
    }
  }
  return cached;
}
