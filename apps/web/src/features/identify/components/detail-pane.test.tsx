import type { Measures, RoiInsight } from '@ipp/contracts';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProvider, createQueryClient } from '@/app/provider';
import { setLanguage } from '@/i18n';
import { formatTimeWithZone } from '@/lib/time-zones';
import { callsTo, lastBody, mockServer, signIn, type Handler } from '@/test/mock-server';
import { roiFixture } from '@/test/monitoring-fixtures';
import { okEnvelope } from '@/test/render';
import { DetailPane, type DetailRoi } from './detail-pane';

const MEASURES: Measures = {
  area_px: 1234.4,
  perimeter_px: 140.26,
  equivalent_diameter_px: 39.64,
  major_axis_px: 60.2,
  minor_axis_px: 25.1,
  feret_px: 62.3,
  elongation: 2.4,
  eccentricity: 0.9087,
  solidity: 0.912,
  convexity: 0.95,
  circularity: 0.788,
  mean_intensity: 103.25,
  biovolume_px3: 19_857_000,
};

const INSIGHT: RoiInsight = {
  roi_id: 101,
  ai: {
    model_id: 9,
    model_version: 3,
    class_id: 1,
    confidence: 0.52,
    top: [
      { class_id: 1, class_name: '001 Copepod', p: 0.52 },
      { class_id: 2, class_name: '002 Diatom chain', p: 0.3 },
      { class_id: 3, class_name: '003 Dinoflagellate', p: 0.18 },
    ],
    low_confidence: true,
    labelled_at: 1,
  },
  measures: MEASURES,
  pixel_size_um: 2,
};

function server(extra: Record<string, Handler> = {}) {
  return mockServer({ '/api/ai/roi': () => okEnvelope(INSIGHT), ...extra });
}

function renderPane(onMove = vi.fn(), roi: DetailRoi = roiFixture({ id: 101 })) {
  render(
    <AppProvider client={createQueryClient()}>
      <MemoryRouter>
        <DetailPane
          roi={roi}
          loading={false}
          previousId={null}
          nextId={102}
          onMove={onMove}
          actions={[]}
          onRun={() => undefined}
          busy={false}
          reviewKeys={false}
          groupId={4}
        />
      </MemoryRouter>
    </AppProvider>,
  );
  return onMove;
}

beforeEach(async () => {
  await setLanguage('zh');
  signIn('administrator');
});

describe('detail pane: AI recognition', () => {
  it('shows the AI class with its confidence, the top three with their shares, the model and a low-confidence tag', async () => {
    const fetchMock = server();
    renderPane();
    const section = await screen.findByTestId('ai-section');
    expect(callsTo(fetchMock, '/api/ai/roi')[0]!.url.searchParams.get('roi_id')).toBe('101');
    expect(within(section).getByTestId('ai-class').textContent).toBe('001 Copepod');
    expect(within(section).getByTestId('ai-confidence').textContent).toBe('52.0 %');
    expect(within(section).getByTestId('ai-model').textContent).toBe('模型 v3');
    expect(within(section).getByTestId('ai-low-confidence').textContent).toBe('低置信度');
    const top = within(within(section).getByRole('list', { name: '候选类别' })).getAllByRole('listitem');
    expect(top.map((row) => row.textContent)).toEqual([
      '001 Copepod52.0 %',
      '002 Diatom chain30.0 %',
      '003 Dinoflagellate18.0 %',
    ]);

    // The morphology is folded away until asked for.
    expect(screen.queryByTestId('ai-measure-area_px')).toBeNull();
    fireEvent.click(screen.getByText('形态测量'));
    expect((await screen.findByTestId('ai-measure-area_px')).textContent).toBe('1234 px²');
    expect(screen.getByTestId('ai-measure-equivalent_diameter_px').textContent).toBe('39.6 px');
    expect(screen.getByTestId('ai-measure-circularity').textContent).toBe('0.788');
    expect(screen.getByTestId('ai-measure-biovolume_px3').textContent).toBe('1.99e+7 px³');
    // The station's pixel size (2 µm/px) gives the physical units beside the pixels.
    expect(screen.getByTestId('ai-measure-area_px-physical').textContent).toBe('4938 µm²');
    expect(screen.getByTestId('ai-measure-equivalent_diameter_px-physical').textContent).toBe('79.3 µm');
    expect(screen.getByTestId('ai-measure-biovolume_px3-physical').textContent).toBe('0.159 mm³');
    expect(screen.queryByTestId('ai-measure-circularity-physical')).toBeNull();
    expect(screen.queryByTestId('ai-measures-no-pixel-size')).toBeNull();
  });

  it('says the sizes are in pixels when the station has no pixel size', async () => {
    server({ '/api/ai/roi': () => okEnvelope({ ...INSIGHT, pixel_size_um: null }) });
    renderPane();
    expect((await screen.findByTestId('ai-measures-no-pixel-size')).textContent).toBe('尺寸以像素计：站点未设置像素尺寸');
    fireEvent.click(screen.getByText('形态测量'));
    expect((await screen.findByTestId('ai-measure-area_px')).textContent).toBe('1234 px²');
    expect(screen.queryByTestId('ai-measure-area_px-physical')).toBeNull();
  });

  it('says when there is no AI label and no features yet, and has no low-confidence tag for a confident label', async () => {
    server({ '/api/ai/roi': () => okEnvelope({ roi_id: 101, ai: null, measures: null, pixel_size_um: null }) });
    renderPane();
    // The image is AI-typed but no model labelled it: the instrument did, and the pane says so (issue 20).
    expect((await screen.findByTestId('ai-none')).textContent).toBe('无模型标签：此图像由仪器标注');
    expect(screen.getByTestId('ai-no-measures').textContent).toBe('尚未计算特征');
    expect(screen.queryByTestId('ai-low-confidence')).toBeNull();
  });
});

describe('detail pane: who labelled the image', () => {
  const field = (key: string) => screen.queryByTestId(`identify-detail-${key}`)?.textContent ?? null;

  it('names the model and its version, when it labelled and how sure, when the model gave the class', async () => {
    server();
    renderPane();
    await waitFor(() => expect(field('labelled-by')).toBe('模型 v3'));
    expect(field('confidence')).toBe('52.0 %');
    expect(field('labelled-at')).toBe(formatTimeWithZone(INSIGHT.ai!.labelled_at));
  });

  it('names the instrument for a device label, with the time it arrived and the confidence it sent', async () => {
    server({ '/api/ai/roi': () => okEnvelope({ roi_id: 101, ai: null, measures: null, pixel_size_um: null }) });
    const roi = roiFixture({ id: 101 });
    renderPane(vi.fn(), roi);
    await waitFor(() => expect(field('labelled-by')).toBe('仪器'));
    expect(field('confidence')).toBe('87.5 %');
    expect(field('labelled-at')).not.toBeNull();
  });

  it('shows no confidence for an unclassified image (whatever the instrument sent) nor for a hand label', async () => {
    server({ '/api/ai/roi': () => okEnvelope({ roi_id: 101, ai: null, measures: null, pixel_size_um: null }) });
    renderPane(vi.fn(), roiFixture({ id: 101, type: 'ui', class_id: null, class_name: null, roi_labelindex: 0, confidence: 0 }));
    await waitFor(() => expect(field('labelled-by')).toBe('无（未识别）'));
    expect(field('confidence')).toBeNull();
    expect(field('labelled-at')).toBeNull();
    expect((await screen.findByTestId('ai-none')).textContent).toBe('暂无 AI 标签');
  });

  it('names a person for a hand label, without a confidence', async () => {
    server();
    renderPane(vi.fn(), roiFixture({ id: 101, type: 'hi', hi: 1 }));
    await waitFor(() => expect(field('labelled-by')).toBe('人工'));
    expect(field('confidence')).toBeNull();
  });

  it('names the person who gave a hand label and when, as the server recorded it', async () => {
    server();
    const at = new Date(2026, 2, 5, 10, 15).getTime();
    renderPane(vi.fn(), roiFixture({ id: 101, type: 'hi', hi: 1, labelled_by: 12, labelled_by_name: '张伟', labelled_at: at }));
    await waitFor(() => expect(field('labelled-by')).toBe('张伟'));
    expect(field('labelled-at')).toBe(formatTimeWithZone(at));
    expect(field('confidence')).toBeNull();
  });

  it('opens "more like this" with M while the pane has focus, and shows a chosen neighbour', async () => {
    const neighbour = { ...roiFixture({ id: 205, class_name: '002 Diatom chain' }), distance: 0.1234 };
    const fetchMock = server({
      '/api/ai/similar': () =>
        okEnvelope({ items: [neighbour, { ...roiFixture({ id: 206, class_name: null }), distance: 0.5 }] }),
    });
    const onMove = renderPane();
    await screen.findByTestId('ai-section');
    // Outside the pane the key does nothing.
    fireEvent.keyDown(document.body, { key: 'm' });
    expect(screen.queryByTestId('similar-drawer')).toBeNull();

    fireEvent.keyDown(screen.getByTestId('identify-detail'), { key: 'm' });
    const cell = await screen.findByTestId('similar-205');
    expect(callsTo(fetchMock, '/api/ai/similar')[0]!.url.searchParams.get('roi_id')).toBe('101');
    expect(cell.textContent).toContain('002 Diatom chain');
    expect(cell.textContent).toContain('距离 0.123');
    expect(within(screen.getByTestId('similar-206')).getByRole('img').getAttribute('src')).toBe('/api/roi/thumb/206');
    fireEvent.click(cell);
    expect(onMove).toHaveBeenCalledWith(205);
    await waitFor(() => expect(screen.queryByTestId('similar-grid')).toBeNull());
  });

  it('says so when no neighbour is known', async () => {
    server({ '/api/ai/similar': () => okEnvelope({ items: [] }) });
    renderPane();
    fireEvent.click(await screen.findByTestId('identify-similar'));
    expect((await screen.findByTestId('similar-empty')).textContent).toContain('没有相似图像');
  });

  it('shows the enhanced rendering from POST /enhance (outside the api prefix) while Enhance is on', async () => {
    const fetchMock = server({ '/enhance': () => okEnvelope({ url: 'roi/file/enhanced-101' }) });
    renderPane();
    const image = () => screen.getByTestId('identify-detail-image');
    expect(image().getAttribute('src')).toBe('/api/roi/file/101');
    fireEvent.click(screen.getByTestId('identify-enhance'));
    await waitFor(() => expect(image().getAttribute('src')).toBe('/api/roi/file/enhanced-101'));
    expect(lastBody(fetchMock, '/enhance')).toEqual({ roi_id: 101 });
    expect(screen.getByTestId('identify-enhance').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByTestId('identify-enhance'));
    expect(image().getAttribute('src')).toBe('/api/roi/file/101');
  });

  it('asks the reference library which class the ROI is like', async () => {
    const fetchMock = server({
      '/folders/query': () =>
        okEnvelope({
          classes: [
            { class_id: 2, class_name: '002 Diatom chain', score: 0.75, votes: 7 },
            { class_id: 1, class_name: '001 Copepod', score: 0.25, votes: 3 },
          ],
          neighbours: Array.from({ length: 10 }, (_, i) => ({ roi_id: 300 + i, folder_id: 1, class_id: 2, distance: 0.1 })),
        }),
    });
    renderPane();
    fireEvent.click(screen.getByTestId('ai-reference'));
    expect((await screen.findByTestId('ai-reference-2')).textContent).toContain('75% · 7 票');
    expect(screen.getByTestId('ai-reference-1').textContent).toContain('25% · 3 票');
    expect(lastBody(fetchMock, '/folders/query')).toEqual({ roi_id: 101, group_id: 4 });
  });
});
