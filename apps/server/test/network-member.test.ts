import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../src/lib/random.ts';
import { NetworkMember } from '../src/modules/recognition/network-member.ts';
import { crossValidateTeamModel, loadPredictor, trainTeamModel, type TeamModel } from '../src/modules/recognition/team-model.ts';
import { SCORE_DIM, VECTOR_NAMES } from '../src/modules/recognition/vector.ts';

const DIM = VECTOR_NAMES.length;
const OFFSET = DIM - SCORE_DIM;
/** Team class ids: not the network's 0-32, and in another order (network class 3k+1 means team class TEAM[k]). */
const TEAM = [501, 502, 503, 504];

/**
 * Vectors whose network scores (stored as ln(p + 10⁻⁴)) say the class with probability `sure`, and whose measured
 * part says it with noise `noise` (large: useless).
 */
function set(n: number, seed: number, sure: number, noise: number) {
  const random = mulberry32(seed);
  const x: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const k = i % TEAM.length;
    const v = new Array<number>(DIM).fill(0).map(() => random() * noise);
    v[k] = v[k]! + 1;
    const right = random() < sure;
    const netClass = 3 * (right ? k : (k + 1 + Math.floor(random() * 3)) % TEAM.length) + 1;
    for (let j = 0; j < SCORE_DIM; j++) v[OFFSET + j] = Math.log((j === netClass ? 0.9 : 0.1 / (SCORE_DIM - 1)) + 1e-4);
    x.push(v);
    y.push(TEAM[k]!);
  }
  return { x, y, accepted: y.map((c) => [c]) };
}

describe('the network member of a team model', () => {
  it("maps the network's classes to the team's by what the team's images show", () => {
    const member = NetworkMember.train(set(80, 1, 1, 0), TEAM);
    expect(member.classes).toEqual(TEAM);
    TEAM.forEach((c, k) => {
      const v = new Array<number>(DIM).fill(0);
      for (let j = 0; j < SCORE_DIM; j++) v[OFFSET + j] = Math.log((j === 3 * k + 1 ? 0.9 : 0.003) + 1e-4);
      const p = member.proba(v);
      expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      expect([...p].indexOf(Math.max(...p))).toBe(k);
    });
    // Vectors without the network's scores (the measured features alone) get no member.
    expect(NetworkMember.applies(206)).toBe(false);
    expect(() => NetworkMember.train({ x: [[1, 2]], y: [501] }, TEAM)).toThrow();
  });

  it('gets the weight the cross-validation measures best: a share where the network knows, none where it guesses', () => {
    // The network right 95% of the time, the measured features noise: the member earns a share (the forest and the
    // regression see the network's scores too, so they are not useless either).
    const knows = crossValidateTeamModel(set(120, 2, 0.95, 3), 4, { seed: 42 });
    expect(knows.memberWeight).toBeGreaterThan(0);
    expect(knows.balancedAccuracy).toBeGreaterThan(0.85);
    // The network right a quarter of the time (chance among four), the measured features clearer: left out.
    const guesses = crossValidateTeamModel(set(120, 3, 0.25, 0.05), 4, { seed: 42 });
    expect(guesses.memberWeight).toBe(0);
  });

  it('is stored with the model and read back; a model of version 1 still loads, without one', () => {
    const data = set(60, 4, 0.9, 1);
    const model = trainTeamModel(data, { seed: 42, memberWeight: 0.75 }).withTemperature(1.5);
    const json = JSON.parse(JSON.stringify(model.toJSON()));
    expect(json.version).toBe(2);
    expect(json.member_weight).toBe(0.75);
    const back = loadPredictor(json) as TeamModel;
    expect(back.memberWeight).toBe(0.75);
    expect(back.temperature).toBe(1.5);
    expect(back.predictMany(data.x.slice(0, 10))).toEqual(model.predictMany(data.x.slice(0, 10)));
    const v1 = { ...json, version: 1, member: undefined, member_weight: undefined };
    const old = loadPredictor(v1) as TeamModel;
    expect(old.member).toBeNull();
    expect(old.memberWeight).toBe(0);
    expect(() => loadPredictor({ ...json, member_weight: 2 })).toThrow(/member weight/);
    expect(() => loadPredictor({ ...json, member: { ...json.member, map: [[1]] } })).toThrow(/network member/);
  });
});
