import fs from 'node:fs';
import path from 'node:path';
import type { BackboneCard } from '@ipp/contracts';
import { BACKBONE_DIR } from './backbone.ts';
import { BACKBONE_VERSION } from '../vector.ts';

interface TrainingLog {
  held_out_count?: number;
  balanced_held_out_count?: number;
  epochs: { held_out_top1?: number; held_out_balanced?: number; balanced_set_top1?: number; balanced_set_balanced?: number }[];
}

let cached: BackboneCard | null | undefined;

/**
 * The committed backbone's held-out figures (its training.json, written by `npm run train:backbone`), read once:
 * the last epoch that was measured. Null when the file is missing or unreadable.
 */
export function backboneCard(file = path.join(BACKBONE_DIR, 'training.json')): BackboneCard | null {
  if (cached !== undefined && file === path.join(BACKBONE_DIR, 'training.json')) return cached;
  let card: BackboneCard | null = null;
  try {
    const log = JSON.parse(fs.readFileSync(file, 'utf8')) as TrainingLog;
    const last = [...log.epochs].reverse().find((e) => e.held_out_top1 !== undefined || e.balanced_set_balanced !== undefined);
    card = {
      version: BACKBONE_VERSION,
      held_out_images: log.balanced_held_out_count ?? 0,
      balanced_accuracy: last?.balanced_set_balanced ?? null,
      top1: last?.balanced_set_top1 ?? null,
      natural_images: log.held_out_count ?? 0,
      natural_top1: last?.held_out_top1 ?? null,
      natural_balanced_accuracy: last?.held_out_balanced ?? null,
    };
  } catch {
    card = null;
  }
  if (file === path.join(BACKBONE_DIR, 'training.json')) cached = card;
  return card;
}
