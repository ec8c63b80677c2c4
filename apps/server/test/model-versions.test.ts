import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorld, type World } from './helpers/actors.ts';
import { buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { trainClassifier } from '../src/modules/recognition/classifier/train-forest.ts';
import { ModelStore, usableVersion } from '../src/modules/recognition/model-store.ts';
import { VECTOR_VERSION } from '../src/modules/recognition/vector.ts';

/**
 * Issue 38 changed the network (vector version 3): a model trained on another network's outputs must not label
 * today's vectors; a forest of the first releases (measured features only, version 1) still may.
 */
describe.each(dialects)('models of older recognition vectors on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
  });
  afterEach(async () => {
    await env.close();
  });

  const readyModel = async (featureVersion: number) => {
    const forest = trainClassifier({ x: [[0], [1], [0.1], [0.9]], y: [1, 2, 1, 2] }, { seed: 1, trees: 3 });
    const now = env.clock.now;
    return (
      await env.db.kysely
        .insertInto('ai_models')
        .values({
          group_id: w.teamA,
          version: featureVersion,
          status: 'ready',
          feature_version: featureVersion,
          cv_accuracy: null,
          cv_balanced_accuracy: null,
          model: JSON.stringify(forest.toJSON()),
          report: null,
          error: null,
          created_by: w.ids.ownAdmin,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  };

  it('loads a current model and a first-release forest, and refuses one of another network', async () => {
    expect(VECTOR_VERSION).toBe(3);
    expect([1, 2, 3].map(usableVersion)).toEqual([true, false, true]);
    const store = new ModelStore(env.db);
    expect(await store.load(await readyModel(1), w.teamA)).not.toBeNull();
    expect(await store.load(await readyModel(VECTOR_VERSION), w.teamA)).not.toBeNull();
    // Trained on vector 2 (issue 21's network): its embedding features mean something else now.
    expect(await store.load(await readyModel(2), w.teamA)).toBeNull();
  });
});
