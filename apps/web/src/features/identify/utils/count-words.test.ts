import { afterAll, describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '@/i18n';

/** The count messages of the identify workspace, as the user reads them for one and for several. */
describe('identify count messages', () => {
  afterAll(async () => {
    await setLanguage('zh');
  });

  it('say "1 image", not "1 images", in English', async () => {
    await setLanguage('en');
    const t = i18n.t.bind(i18n);
    expect(t('identify.confirmAction', { count: 1 })).toBe('Apply this to 1 image?');
    expect(t('identify.confirmAction', { count: 3 })).toBe('Apply this to 3 images?');
    expect(t('identify.confirmActionTo', { count: 1, target: '101Box' })).toBe('Apply this to 1 image, into 101Box?');
    expect(t('identify.done', { count: 1, unchanged: 0 })).toBe('Operation successful: 1 image changed, 0 unchanged');
    expect(t('identify.done', { count: 2, unchanged: 1 })).toBe('Operation successful: 2 images changed, 1 unchanged');
    expect(t('identify.total', { count: 1, n: '1' })).toBe('1 image');
    expect(t('identify.total', { count: 12_000, n: '1.20 万' })).toBe('1.20 万 images');
    expect(t('identify.purgeConfirm', { count: 1 })).toBe('Permanently delete 1 selected image? This cannot be undone.');
    expect(t('identify.running', { count: 1 })).toBe('Processing 1 image…');
    expect(t('identify.reidentify.queued', { count: 1 })).toBe('1 image queued for re-identification');
    expect(t('identify.reidentify.finished', { count: 1 })).toBe('Re-identification finished: 1 label changed');
    expect(t('identify.ai.referenceHint', { count: 1 })).toContain('1 nearest image of');
  });

  it('read naturally in Chinese, whatever the count', async () => {
    await setLanguage('zh');
    const t = i18n.t.bind(i18n);
    expect(t('identify.confirmAction', { count: 1 })).toBe('对 1 张图像执行此操作，确定吗？');
    expect(t('identify.done', { count: 1, unchanged: 0 })).toBe('操作成功：1 张已处理，0 张未变化');
    expect(t('identify.total', { count: 5, n: '5' })).toBe('共 5 张');
  });
});
