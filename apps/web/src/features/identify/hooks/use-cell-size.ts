import { useState } from 'react';
import { readStorage, writeStorage } from '@/lib/storage';
import { CELL_SIZES } from '../utils/thumbnail';

const KEY = 'identify.cellSize';

/** The thumbnail size the user chose with the zoom slider, kept on this browser. */
export function useCellSize(): [number, (size: number) => void] {
  const [size, setSize] = useState(() => {
    const stored = Number(readStorage(KEY));
    return Number.isInteger(stored) && stored >= CELL_SIZES.min && stored <= CELL_SIZES.max ? stored : CELL_SIZES.default;
  });
  return [
    size,
    (next: number) => {
      setSize(next);
      writeStorage(KEY, String(next));
    },
  ];
}
