import { afterAll, afterEach, expect } from 'vitest';
import { settled, tally, violations } from './answers.ts';

// Each e2e test fails when the console received an answer its route's declared schema does not describe.
afterEach(async () => {
  await settled();
  expect(violations.splice(0)).toEqual([]);
});

afterAll(() => {
  if (tally.checked > 0) console.log(`API answers checked against their declared schemas: ${tally.checked}`);
});
