import type { TreeNode } from '@ipp/contracts';
import { describe, expect, it } from 'vitest';
import { nodeMenuKeys } from './node-menu';

const node = (over: Partial<TreeNode>): TreeNode => ({
  code: 'f:1',
  title: '101Folder',
  count: 0,
  roi_index_id: 1,
  class_id: null,
  attention: false,
  toolbar: false,
  system: false,
  kind: 'folder',
  children: [],
  ...over,
});
const admin = { canWrite: true, isAdmin: true, editClasses: true, demo: false };

describe('tree node menu', () => {
  it('offers every folder operation where the caller writes, only copying out elsewhere', () => {
    expect(nodeMenuKeys(node({}), admin)).toEqual([
      'toolbar-add',
      'attention-add',
      'rename',
      'copy-class',
      'move-class',
      'to-hi',
      'delete',
    ]);
    expect(nodeMenuKeys(node({ toolbar: true }), { ...admin, canWrite: false })).toEqual(['toolbar-remove', 'copy-class']);
  });

  it('lets administrators rename and delete HI classes under site images, never system classes; users only keep shortcuts', () => {
    const hi = node({ kind: 'class', code: 't:hi:c:9', roi_index_id: null, class_id: 9, attention: true });
    expect(nodeMenuKeys(hi, admin)).toEqual(['toolbar-add', 'attention-remove', 'rename', 'delete']);
    expect(nodeMenuKeys({ ...hi, system: true }, admin)).toEqual(['toolbar-add', 'attention-remove']);
    expect(nodeMenuKeys(hi, { ...admin, editClasses: false })).toEqual(['toolbar-add', 'attention-remove']);
    expect(nodeMenuKeys(hi, { ...admin, canWrite: false, isAdmin: false })).toEqual(['toolbar-add']);
  });

  it('offers nothing on example ROIs (spec §4: no operations), neither shortcuts nor copying a class out', () => {
    const example = { ...admin, canWrite: false, isAdmin: true, editClasses: false, readOnly: true };
    expect(nodeMenuKeys(node({}), example)).toEqual([]);
    expect(nodeMenuKeys(node({ kind: 'class', code: 't:ai:c:1', roi_index_id: null, class_id: 1 }), example)).toEqual([]);
  });

  it('offers no operation on the images of a team-gallery folder holding demo images (spec §6), only its name and marks', () => {
    expect(nodeMenuKeys(node({ demo_images: true }), admin)).toEqual(['toolbar-add', 'attention-add', 'rename']);
    expect(nodeMenuKeys(node({ demo_images: true }), { ...admin, canWrite: false })).toEqual(['toolbar-add']);
  });

  it('offers nothing to the read-only demo account', () => {
    expect(nodeMenuKeys(node({}), { ...admin, demo: true })).toEqual([]);
  });
});
