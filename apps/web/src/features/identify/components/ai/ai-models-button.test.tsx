import type { Job, Model } from '@ipp/contracts';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProvider, createQueryClient } from '@/app/provider';
import { setLanguage } from '@/i18n';
import { callsTo, lastBody, mockServer, signIn, type Handler } from '@/test/mock-server';
import { okEnvelope } from '@/test/render';
import { pickOption } from '@/test/select';
import { AiModelsButton } from './ai-models-button';

function model(over: Partial<Model>): Model {
  return {
    id: 11,
    group_id: 4,
    version: 1,
    status: 'ready',
    active: false,
    train_size: 1200,
    classes: 12,
    cv_accuracy: 0.8771,
    cv_balanced_accuracy: 0.7,
    feature_version: 1,
    calibrated: false,
    labels_accepted: 0,
    labels_review: 0,
    created_at: new Date(2026, 2, 5, 9, 30).getTime(),
    created_by: 'admin',
    error: null,
    ...over,
  };
}

function trainJob(over: Partial<Job>): Job {
  return {
    id: 51,
    kind: 'train',
    group_id: 4,
    status: 'running',
    total: 10,
    done: 3,
    changed: 0,
    ipp_id: null,
    dev_id: null,
    class_id: null,
    class_name: null,
    start_at: null,
    end_at: null,
    model_id: 13,
    user_name: 'admin',
    error: null,
    created_at: 1,
    updated_at: 1,
    ...over,
  };
}

const list = (items: Model[]) => okEnvelope({ group_id: 4, active_id: items.find((m) => m.active)?.id ?? null, items });

function server(routes: Record<string, Handler>) {
  return mockServer({ '/api/ai/jobs': () => okEnvelope({ items: [] }), ...routes });
}

function openDrawer(props: Partial<Parameters<typeof AiModelsButton>[0]> = {}) {
  render(
    <AppProvider client={createQueryClient()}>
      <AiModelsButton groupId={4} needsTeam={false} readOnly={false} {...props} />
    </AppProvider>,
  );
  fireEvent.click(screen.getByTestId('identify-ai-models'));
}

const row = (version: number) => screen.getByTestId(`model-row-${version}`);

beforeEach(async () => {
  await setLanguage('zh');
  signIn('administrator');
});

describe('AI models drawer', () => {
  it('explains where a model comes from, trains one after a confirmation and follows the training', async () => {
    let trained = false;
    let polls = 0;
    const fetchMock = server({
      '/api/ai/models': () =>
        list(
          trained ? [model({ id: 13, version: 1, status: 'ready' })] : polls > 0 ? [model({ id: 13, status: 'training' })] : [],
        ),
      '/api/ai/models/train': () => okEnvelope({ job_id: 51, model_id: 13 }),
      '/api/ai/job': () => {
        polls += 1;
        if (polls < 3) return okEnvelope(trainJob({ done: polls * 3 }));
        trained = true;
        return okEnvelope(trainJob({ status: 'done', done: 10 }));
      },
    });
    openDrawer();
    expect((await screen.findByTestId('models-empty')).textContent).toContain('模型由团队的 HI 类别和参考库训练而成');
    expect(callsTo(fetchMock, '/api/ai/models')[0]!.url.searchParams.get('group_id')).toBe('4');

    fireEvent.click(screen.getByTestId('model-train'));
    await screen.findByText(/用团队的 HI 类别和参考库训练新版本模型/);
    expect(callsTo(fetchMock, '/api/ai/models/train')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(lastBody(fetchMock, '/api/ai/models/train')).toEqual({ group_id: 4 }));

    await waitFor(() => expect(screen.getByTestId('model-train-job-count').textContent).toBe('3 / 10'));
    expect(screen.getByTestId('model-train').hasAttribute('disabled')).toBe(true);
    await waitFor(() => expect(screen.getByTestId('model-train-job-count').textContent).toBe('6 / 10'));
    expect((await screen.findByTestId('model-train-job-outcome')).textContent).toContain('训练完成');
    // The finished version shows in the list, and a new training may start.
    await waitFor(() => expect(within(row(1)).getByTestId('model-status').textContent).toBe('可用'));
    expect(screen.getByTestId('model-train').hasAttribute('disabled')).toBe(false);
  });

  it('lists the versions and activates a ready one only after a confirmation', async () => {
    let activeId = 11;
    const models = () => [
      model({ id: 13, version: 3, status: 'failed', cv_accuracy: null, cv_balanced_accuracy: null, error: 'Too few classes' }),
      model({ id: 12, version: 2, active: activeId === 12 }),
      model({ id: 11, version: 1, active: activeId === 11 }),
    ];
    const fetchMock = server({
      '/api/ai/models': () => list(models()),
      '/api/ai/models/activate': (_url, init) => {
        activeId = (JSON.parse(String(init?.body)) as { model_id: number }).model_id;
        return okEnvelope(null);
      },
    });
    openDrawer();
    await screen.findByTestId('model-row-1');
    expect(within(row(1)).getByTestId('model-active').textContent).toBe('已启用');
    expect(row(1).textContent).toContain('87.7 %');
    expect(row(1).textContent).toContain('70.0 %');
    expect(row(1).textContent).toContain('2026-03-05 09:30:00');
    expect(row(3).textContent).toContain('Too few classes');
    // Only a ready version that is not the active one can be activated.
    expect(within(row(1)).queryByTestId('model-activate-1')).toBeNull();
    expect(within(row(3)).queryByRole('button')).toBeNull();

    fireEvent.click(screen.getByTestId('model-activate-2'));
    await screen.findByText(/将版本 2 设为启用的模型？/);
    expect(callsTo(fetchMock, '/api/ai/models/activate')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('confirm-ok'));
    await screen.findByText('版本 2 已启用');
    expect(lastBody(fetchMock, '/api/ai/models/activate')).toEqual({ model_id: 12 });
    await waitFor(() => expect(within(row(2)).queryByTestId('model-active')).toBeTruthy());
    expect(within(row(1)).getByTestId('model-activate-1')).toBeTruthy();
  });

  it('asks a superadmin to pick a team first', async () => {
    const fetchMock = server({});
    openDrawer({ groupId: undefined, needsTeam: true });
    expect((await screen.findByTestId('ai-models-pick-team')).textContent).toContain('请先在团队选择框中选择团队');
    expect(callsTo(fetchMock, '/api/ai/models')).toHaveLength(0);
  });

  it('saves the target precision, the default threshold and per-class overrides, removing the ones taken away; shows the automatic thresholds', async () => {
    const calibration = {
      group_id: 4,
      target_precision: 0.95,
      calibrated: true,
      auto: [
        { class_id: 1, class_name: '001 Copepod', threshold: 0.875, precision: 0.96, coverage: 0.7, predicted: 40 },
        { class_id: 2, class_name: '002 Diatom chain', threshold: null, precision: null, coverage: 0, predicted: 12 },
      ],
    };
    const fetchMock = server({
      '/api/ai/models': () => list([]),
      '/api/tool/sys-init': () =>
        okEnvelope([
          {
            id: 1,
            title: '001 Copepod',
            label_index: 1,
            system: true,
            visible: true,
            attention: false,
            owner: 'system',
            editable: false,
            taxon: null,
          },
          {
            id: 2,
            title: '002 Diatom chain',
            label_index: 2,
            system: true,
            visible: true,
            attention: false,
            owner: 'system',
            editable: false,
            taxon: null,
          },
        ]),
      '/api/ai/thresholds': (_url, init) =>
        init?.method === 'POST'
          ? okEnvelope({
              ...calibration,
              target_precision: 0.9,
              default: 0.7,
              items: [{ class_id: 2, class_name: '002 Diatom chain', threshold: 0.5 }],
            })
          : okEnvelope({ ...calibration, default: 0.6, items: [{ class_id: 1, class_name: '001 Copepod', threshold: 0.8 }] }),
    });
    openDrawer();
    fireEvent.click(await screen.findByRole('tab', { name: '阈值' }));
    expect(await screen.findByText(/置信度是经过校准的概率/)).toBeTruthy();
    const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
    // The active model's automatic thresholds: one reached, one out of reach (every label reviewed).
    const auto = screen.getByTestId('auto-thresholds');
    expect(within(auto).getByText('≥ 87.5%')).toBeTruthy();
    expect(within(auto).getByText('无法达到：全部审核')).toBeTruthy();
    expect(input('threshold-target').value).toBe('95.0');
    fireEvent.change(input('threshold-target'), { target: { value: '90' } });
    expect(input('threshold-default').value).toBe('60.0');
    expect(input('threshold-1').value).toBe('80.0');

    fireEvent.change(input('threshold-default'), { target: { value: '70' } });
    fireEvent.click(screen.getByTestId('threshold-remove-1'));
    await pickOption('threshold-add-class', '002 Diatom chain');
    fireEvent.change(input('threshold-add-value'), { target: { value: '50' } });
    fireEvent.click(screen.getByTestId('threshold-add'));
    expect(input('threshold-2').value).toBe('50.0');
    fireEvent.click(screen.getByTestId('threshold-save'));
    await screen.findByText('阈值已保存');
    expect(lastBody(fetchMock, '/api/ai/thresholds')).toEqual({
      group_id: 4,
      default: 0.7,
      target_precision: 0.9,
      items: [
        { class_id: 2, threshold: 0.5 },
        { class_id: 1, threshold: null },
      ],
    });
  });

  it('lists the jobs and cancels a running one after a confirmation', async () => {
    let cancelled = false;
    const reid = (status: Job['status']) =>
      trainJob({
        id: 61,
        kind: 'reidentify',
        status,
        dev_id: '21005',
        class_name: '001 Copepod',
        done: 40,
        total: 100,
        changed: 5,
      });
    const fetchMock = server({
      '/api/ai/models': () => list([]),
      '/api/ai/jobs': () => okEnvelope({ items: [reid(cancelled ? 'cancelled' : 'running')] }),
      '/api/ai/jobs/cancel': () => {
        cancelled = true;
        return okEnvelope(reid('cancelled'));
      },
    });
    openDrawer();
    fireEvent.click(await screen.findByRole('tab', { name: '任务' }));
    const jobRow = await screen.findByTestId('job-row-61');
    expect(jobRow.textContent).toContain('重新识别');
    expect(jobRow.textContent).toContain('21005');
    expect(jobRow.textContent).toContain('40 / 100');
    fireEvent.click(screen.getByTestId('job-cancel-61'));
    await screen.findByText('停止此任务？已完成的部分保持不变。');
    expect(callsTo(fetchMock, '/api/ai/jobs/cancel')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(screen.getByTestId('job-row-61').getAttribute('data-status')).toBe('cancelled'));
    expect(lastBody(fetchMock, '/api/ai/jobs/cancel')).toEqual({ job_id: 61 });
  });

  it("shows a version's evaluation report, weakest class first, and its confusions", async () => {
    server({
      '/api/ai/models': () => list([model({ id: 11, version: 1, active: true })]),
      '/api/ai/model/report': () =>
        okEnvelope({
          model_id: 11,
          version: 1,
          folds: 5,
          n: 60,
          accuracy: 0.75,
          balanced_accuracy: 0.7,
          ece: 0.043,
          backbone: {
            version: 'abc123def456',
            held_out_images: 442,
            balanced_accuracy: 0.612,
            top1: 0.64,
            natural_images: 1612,
            natural_top1: 0.58,
            natural_balanced_accuracy: 0.6,
          },
          classes: [
            { class_id: 1, class_name: '001Copepod', support: 30, precision: 0.8, recall: 0.9 },
            { class_id: 2, class_name: '002Diatom_chain', support: 30, precision: 0.7, recall: 0.5 },
          ],
          confusions: [
            {
              true_class_id: 2,
              true_class_name: '002Diatom_chain',
              predicted_class_id: 1,
              predicted_class_name: '001Copepod',
              count: 15,
            },
          ],
        }),
    });
    openDrawer();
    fireEvent.click(await screen.findByTestId('model-report-1'));
    const report = await screen.findByTestId('model-report');
    expect(report.textContent).toContain('75.0 %');
    // Balanced accuracy is the headline: first, before top-1 and the calibration error (issue 38).
    const figures = screen.getByTestId('model-report-figures').textContent!;
    expect(figures.indexOf('70.0 %')).toBeLessThan(figures.indexOf('75.0 %'));
    expect(figures).toContain('4.3 %');
    expect(screen.getByTestId('model-report-backbone').textContent).toContain('61.2 %');
    expect(screen.getByTestId('model-report-backbone').textContent).toContain('442');
    const rows = within(screen.getByTestId('model-report-classes')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('002Diatom_chain'),
      expect.stringContaining('001Copepod'),
    ]);
    expect(within(screen.getByTestId('model-report-confusions')).getByText('15')).toBeTruthy();
  });

  it('classifies an image from the computer and says when the team has no model yet', async () => {
    const fetchMock = server({
      '/uploads': () =>
        okEnvelope({
          model_id: null,
          prediction: [],
          measures: {
            area_px: 100,
            perimeter_px: 40,
            equivalent_diameter_px: 11.3,
            major_axis_px: 12,
            minor_axis_px: 10,
            feret_px: 13,
            elongation: 1.2,
            eccentricity: 0.5,
            circularity: 0.8,
            solidity: 0.95,
            convexity: 0.97,
            mean_intensity: 120,
            biovolume_px3: 700,
          },
        }),
    });
    // jsdom has no object URLs: the preview's address is made up.
    URL.createObjectURL = vi.fn(() => 'blob:preview');
    URL.revokeObjectURL = vi.fn();
    openDrawer();
    fireEvent.click(await screen.findByTestId('ai-tab-try'));
    const input = (await screen.findByTestId('try-image-file')).querySelector('input[type=file]')!;
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(8)], 'roi.png', { type: 'image/png' })] } });
    await screen.findByTestId('try-image-no-model');
    expect(callsTo(fetchMock, '/uploads')).toHaveLength(1);
    expect(screen.getByTestId('ai-measures')).toBeTruthy();
  });
});
