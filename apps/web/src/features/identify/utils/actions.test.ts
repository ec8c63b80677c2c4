import { CATEGORY, type Action } from '@ipp/contracts';
import { describe, expect, it } from 'vitest';
import { createState, demoLocked, IMPORT_CATEGORIES, needsConfirm, SHOW_EMPTY_CATEGORIES } from './actions';

const action = (code: string, over: Partial<Action> = {}): Action => ({
  code,
  target: 'none',
  confirm: false,
  danger: false,
  no_ai: false,
  single: false,
  ...over,
});

describe('identify action rules', () => {
  it('asks exactly where the catalogue says (61, adding to favourites, is flagged by the server: a copy, spec §8)', () => {
    expect(needsConfirm(action('61', { confirm: true }))).toBe(true);
    expect(needsConfirm(action('51', { confirm: true }))).toBe(true);
    expect(needsConfirm(action('110'))).toBe(false);
    expect(needsConfirm(action('71'))).toBe(false);
  });

  it('offers no team-gallery action on demo images (spec §6), and leaves other categories alone', () => {
    expect(demoLocked(CATEGORY.TEAM, true)).toBe(true);
    expect(demoLocked(CATEGORY.TEAM, false)).toBe(false);
    expect(demoLocked(CATEGORY.SITE, true)).toBe(false);
  });

  it('offers "Import images" only where imported images land, not in the bin, review, examples or favourites', () => {
    for (const id of [CATEGORY.SITE, CATEGORY.ALL, CATEGORY.TEAM]) expect(IMPORT_CATEGORIES).toContain(id);
    for (const id of [CATEGORY.RECYCLE, CATEGORY.REVIEW, CATEGORY.EXAMPLE, CATEGORY.FAVORITE, CATEGORY.TEMPORARY])
      expect(IMPORT_CATEGORIES).not.toContain(id);
  });

  it('shows the "Show empty classes" switch only where class nodes can be empty', () => {
    expect(SHOW_EMPTY_CATEGORIES).toContain(CATEGORY.SITE);
    for (const id of [CATEGORY.FOLDERS, CATEGORY.TEAM, CATEGORY.TEMPORARY, CATEGORY.EXAMPLE, CATEGORY.SITE_GALLERY])
      expect(SHOW_EMPTY_CATEGORIES).not.toContain(id);
  });

  it('tells a superadmin in "all teams" mode to pick a team before making a class in folders or the team gallery', () => {
    const all = { demo: false, superadminAllTeams: true, hasStation: false };
    expect(createState({ id: CATEGORY.FOLDERS, can_create: false }, all)).toBe('pick-team');
    expect(createState({ id: CATEGORY.TEAM, can_create: false }, all)).toBe('pick-team');
    expect(createState({ id: CATEGORY.TEMPORARY, can_create: true }, all)).toBe('allowed');
    expect(createState({ id: CATEGORY.SITE_GALLERY, can_create: true }, all)).toBe('pick-station');
    expect(createState({ id: CATEGORY.SITE_GALLERY, can_create: true }, { ...all, hasStation: true })).toBe('allowed');
    const team = { ...all, superadminAllTeams: false };
    expect(createState({ id: CATEGORY.FOLDERS, can_create: true }, team)).toBe('allowed');
    expect(createState({ id: CATEGORY.REVIEW, can_create: false }, team)).toBe('none');
    expect(createState({ id: CATEGORY.FOLDERS, can_create: true }, { ...team, demo: true })).toBe('none');
  });
});
