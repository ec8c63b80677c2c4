import { useSyncExternalStore } from 'react';
import { getComponentSize, subscribeComponentSize, type ComponentSize } from '@/lib/component-size';

export function useComponentSize(): ComponentSize {
  return useSyncExternalStore(subscribeComponentSize, getComponentSize, getComponentSize);
}
