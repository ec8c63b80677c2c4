import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS, listQuery, moreFiltersCount, SIZE_UNBOUNDED, wholeFolderOf } from './list-query';

describe('list query', () => {
  it('waits for a station under site images, and sends it only where a station applies', () => {
    expect(listQuery({ categoryId: -100 }, DEFAULT_FILTERS, 480)).toBeNull();
    expect(listQuery({ categoryId: -100, ippId: 7, code: 't:ai' }, DEFAULT_FILTERS, 480)).toMatchObject({
      category_id: -100,
      code: 't:ai',
      ipp_id: 7,
      sorttype: 'desc',
      diysort: 'Roi_time',
      tz: 480,
    });
    expect(listQuery({ categoryId: 0, ippId: 7 }, DEFAULT_FILTERS, 0)?.ipp_id).toBeUndefined();
  });

  it('sends a relative start alone (spec §5), and an absolute range as both ends', () => {
    const relative = listQuery({ categoryId: -4 }, { ...DEFAULT_FILTERS, time: { kind: 'relative', start: '-7 day' } }, 0);
    expect(relative).toMatchObject({ Roi_time_s: '-7 day' });
    expect(relative?.Roi_time_e).toBeUndefined();
    const range = listQuery(
      { categoryId: -4 },
      { ...DEFAULT_FILTERS, time: { kind: 'range', start: '2026-03-01 00:00:00', end: '2026-03-05 23:59:59' } },
      0,
    );
    expect(range).toMatchObject({ Roi_time_s: '2026-03-01 00:00:00', Roi_time_e: '2026-03-05 23:59:59' });
  });

  it('sends a size range as both bounds, an open side as 0 or unbounded', () => {
    const none = listQuery({ categoryId: -4 }, DEFAULT_FILTERS, 0);
    expect([none?.coordRange_0, none?.coordRange_1]).toEqual([undefined, undefined]);
    const min = listQuery({ categoryId: -4 }, { ...DEFAULT_FILTERS, sizeMin: 500 }, 0);
    expect([min?.coordRange_0, min?.coordRange_1]).toEqual([500, SIZE_UNBOUNDED]);
    const max = listQuery({ categoryId: -4 }, { ...DEFAULT_FILTERS, sizeMax: 900 }, 0);
    expect([max?.coordRange_0, max?.coordRange_1]).toEqual([0, 900]);
  });

  it('sends a range in µm as ESD bounds, each side only when set, and no pixel bounds', () => {
    const um = listQuery({ categoryId: -4 }, { ...DEFAULT_FILTERS, sizeUnit: 'um', sizeMin: 112.5 }, 0);
    expect(um).toMatchObject({ esd_min_um: 112.5, esd_max_um: undefined, coordRange_0: undefined, coordRange_1: undefined });
    const both = listQuery({ categoryId: -4 }, { ...DEFAULT_FILTERS, sizeUnit: 'um', sizeMin: 50, sizeMax: 200 }, 0);
    expect([both?.esd_min_um, both?.esd_max_um]).toEqual([50, 200]);
    const px = listQuery({ categoryId: -4 }, { ...DEFAULT_FILTERS, sizeMin: 50 }, 0);
    expect([px?.esd_min_um, px?.esd_max_um]).toEqual([undefined, undefined]);
  });

  it('sends the capture-state filter only when one is chosen', () => {
    expect(listQuery({ categoryId: -4 }, DEFAULT_FILTERS, 0)?.flag).toBeUndefined();
    expect(listQuery({ categoryId: -4 }, { ...DEFAULT_FILTERS, flag: 'uvc' }, 0)?.flag).toBe('uvc');
    expect(listQuery({ categoryId: -4 }, { ...DEFAULT_FILTERS, flag: 'none' }, 0)?.flag).toBe('none');
  });

  it('sends reviewed_type only in the review queue', () => {
    const filters = { ...DEFAULT_FILTERS, reviewed: 1 as const };
    expect(listQuery({ categoryId: -7 }, filters, 0)?.reviewed_type).toBe(1);
    expect(listQuery({ categoryId: -4 }, filters, 0)?.reviewed_type).toBeUndefined();
  });

  it('sends the more filters (confidence, who labelled when, a measured feature) and counts the ones set', () => {
    const filters = {
      ...DEFAULT_FILTERS,
      confMin: 0.2,
      confMax: null,
      labelledBy: 12,
      labelledBetween: [1000, 2000] as [number, number],
      feature: 'elongation' as const,
      featureMin: null,
      featureMax: 3,
    };
    expect(listQuery({ categoryId: -1000 }, filters, 0)).toMatchObject({
      conf_min: 0.2,
      labelled_by: 12,
      labelled_s: 1000,
      labelled_e: 2000,
      feature: 'elongation',
      feature_max: 3,
    });
    expect(moreFiltersCount(filters)).toBe(4);
    // A feature without bounds, or bounds without a feature, filter nothing and are not sent.
    const loose = listQuery({ categoryId: -1000 }, { ...DEFAULT_FILTERS, feature: 'solidity' }, 0)!;
    expect([loose.feature, loose.feature_min, loose.feature_max, loose.conf_max]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(moreFiltersCount({ ...DEFAULT_FILTERS, featureMin: 2 })).toBe(0);
  });

  it('lists a whole folder by the folder listing (spec §9), a filtered one or any other node by the filtering list', () => {
    const folder = listQuery({ categoryId: 0, code: 'f:31', groupId: 4 }, DEFAULT_FILTERS, 480)!;
    expect(wholeFolderOf(folder)).toBe(31);
    expect(wholeFolderOf(listQuery({ categoryId: -3, ippId: 7, code: 'f:9' }, { ...DEFAULT_FILTERS, order: 'asc' }, 0)!)).toBe(9);
    // Any filter needs GET /roi/index, which filters; so does any node that is not one folder.
    expect(wholeFolderOf(listQuery({ categoryId: 0, code: 'f:31' }, { ...DEFAULT_FILTERS, dataIndex: 'ai' }, 0)!)).toBeNull();
    expect(
      wholeFolderOf(
        listQuery({ categoryId: 0, code: 'f:31' }, { ...DEFAULT_FILTERS, time: { kind: 'relative', start: '-3 day' } }, 0)!,
      ),
    ).toBeNull();
    expect(wholeFolderOf(listQuery({ categoryId: 0, code: 'f:31' }, { ...DEFAULT_FILTERS, sizeMin: 100 }, 0)!)).toBeNull();
    expect(wholeFolderOf(listQuery({ categoryId: 0 }, DEFAULT_FILTERS, 0)!)).toBeNull();
    expect(wholeFolderOf(listQuery({ categoryId: -100, ippId: 7, code: 't:ai' }, DEFAULT_FILTERS, 0)!)).toBeNull();
  });
});
