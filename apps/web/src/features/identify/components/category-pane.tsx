import { ClearOutlined, DeleteOutlined, PlusOutlined, ScanOutlined } from '@ant-design/icons';
import { CATEGORY, type TreeNode } from '@ipp/contracts';
import { App, Button, Divider, Empty, Flex, Select, Switch, Tag, theme, Tooltip, Typography, type ButtonProps } from 'antd';
import { memo, useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALL_TEAMS, useTeams } from '@/api/get-teams';
import { useFormatCount } from '@/hooks/use-format-count';
import { stationName, stationNameIdFirst } from '@/lib/station-name';
import { useGroupDelete } from '../api/group-delete';
import { useToolbar } from '../api/get-toolbar';
import { useDeleteToolbar } from '../api/delete-toolbar';
import { useCreateClass, useParentTitle } from '../hooks/use-create-class';
import { useNodeActions } from '../hooks/use-node-actions';
import type { Workspace } from '../hooks/use-workspace';
import { createState, SHOW_EMPTY_CATEGORIES } from '../utils/actions';
import { takesStation } from '../utils/list-query';
import { ClassTitleModal } from './class-title-modal';
import { ClassTaxaButton } from './class-taxa-button';
import { ClassVisibilityButton } from './class-visibility-button';
import { ClassTree } from './class-tree';
import { JobWatcher } from './ai/job-watcher';
import { ReidentifyModal } from './reidentify-modal';

const okProps = (danger: boolean) => ({ danger, 'data-testid': 'confirm-ok' }) as ButtonProps;

/** The left pane: team (superadmin), category, station, shortcuts, and the class tree with its operations. */
/**
 * What the pane shows of the workspace. The grid's selection and focus are not in it: they change with every key,
 * and rendering the tree and its selects again cost most of a key's answer (issue 25). The workspace's functions
 * only set state (or close over the category, which is compared), so an earlier render's are as good.
 */
const paneView = (ws: Workspace): unknown[] => [
  ws.categories.data,
  ws.categories.isPending,
  ws.category,
  ws.station,
  ws.stations,
  ws.ipps.isPending,
  ws.tree.data,
  ws.tree.isPending,
  ws.tree.isFetching,
  ws.tree.isError,
  ws.treeNodes,
  ws.code,
  ws.groupId,
  ws.isAdmin,
  ws.isSuperadmin,
  ws.session,
  ws.showEmpty,
  ws.stationMissing,
  ws.tz,
];

export const CategoryPane = memo(CategoryPaneView, (before, after) => {
  const a = paneView(before.ws);
  const b = paneView(after.ws);
  return a.every((value, i) => Object.is(value, b[i]));
});

function CategoryPaneView({ ws }: { ws: Workspace }) {
  const { t } = useTranslation();
  const showEmptyId = useId();
  const { message, modal } = App.useApp();
  const formatCount = useFormatCount();
  const { token } = theme.useToken();
  const teams = useTeams(ALL_TEAMS, { enabled: ws.isSuperadmin });
  const toolbar = useToolbar();
  const deleteToolbar = useDeleteToolbar();
  const createClass = useCreateClass();
  const parentOf = useParentTitle();
  const groupDelete = useGroupDelete();
  const [creating, setCreating] = useState(false);
  const [reidentifying, setReidentifying] = useState(false);
  // Re-identifications submitted here, followed until they end even when their dialog is closed.
  const [watching, setWatching] = useState<number[]>([]);
  const stopWatching = useCallback((jobId: number) => setWatching((ids) => ids.filter((id) => id !== jobId)), []);
  const { category, station } = ws;
  const categoryLabel = (key: string) => t(`identify.category.${key}`);

  const nodeActions = useNodeActions({
    category: category ?? { id: CATEGORY.FOLDERS, key: 'folders', count: 0, can_create: false },
    categories: ws.categories.data ?? [],
    groupId: ws.groupId,
    ippId: station?.id,
    toolbar: toolbar.data ?? [],
    isAdmin: ws.isAdmin,
    demo: ws.session.demo,
    onRemoved: (code) => {
      if (code === ws.code) ws.selectNode(undefined);
    },
  });

  if (!category) return null;
  const isSite = category.id === CATEGORY.SITE;
  const parentTitle = parentOf(category);
  // New classes under site images are HI classes; an IPP gallery folder belongs to one station; a team's folders
  // need the team picked first (a superadmin may be looking at all teams).
  const creation = createState(category, {
    demo: ws.session.demo,
    superadminAllTeams: ws.isSuperadmin && ws.groupId === undefined,
    hasStation: station !== undefined,
  });
  const createHint =
    creation === 'pick-team'
      ? t('identify.newClassPickTeam')
      : creation === 'pick-station'
        ? t('identify.newClassPickStation')
        : null;

  const create = async (title: string) => {
    const created = await createClass(category, title, { groupId: ws.groupId, ippId: station?.id });
    // A new class is empty: shown only with the empty classes.
    if (isSite) ws.setShowEmpty(true);
    ws.selectCreated(created);
  };

  const emptyGroup = (categoryId: number, title: string) =>
    modal.confirm({
      title,
      content: t(categoryId === CATEGORY.RECYCLE ? 'identify.emptyBinConfirm' : 'identify.clearTemporaryConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: okProps(true),
      onOk: () =>
        groupDelete.mutateAsync({ category_id: categoryId, group_id: ws.groupId }).then(
          () => void message.success(t('messages.operationSuccess')),
          () => undefined,
        ),
    });

  const shortcuts = toolbar.data ?? [];
  const categoryOptions = (ws.categories.data ?? []).map((c) => ({
    value: c.id,
    label: `${categoryLabel(c.key)} (${formatCount(c.count)})`,
  }));

  return (
    <Flex vertical gap="small" data-testid="identify-left">
      {ws.isSuperadmin && (
        <Select<number>
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('identify.allTeams')}
          aria-label={t('identify.team')}
          loading={teams.isPending}
          value={ws.groupId}
          onChange={(value) => ws.selectTeam(value ?? undefined)}
          options={teams.data?.items.map((team) => ({ value: team.id, label: team.name }))}
          data-testid="identify-team"
        />
      )}
      <Select<number>
        aria-label={t('identify.categoryLabel')}
        // A dozen entries: all rendered, so any can be reached without scrolling the list first.
        virtual={false}
        listHeight={400}
        value={category.id}
        onChange={ws.selectCategory}
        options={categoryOptions}
        data-testid="identify-category"
      />
      {takesStation(category.id) && (
        <Select<number>
          allowClear={!isSite}
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={isSite ? t('monitor.stationPlaceholder') : t('identify.allStations')}
          aria-label={t('monitor.station')}
          loading={ws.ipps.isPending}
          value={station?.id}
          onChange={(value) => ws.selectStation(value ?? null)}
          options={ws.stations.map((s) => ({ value: s.id, label: stationName(s) }))}
          // The pane is narrow: the chosen station shows its site ID first, so a cut takes the end of its name.
          labelRender={({ value, label }) => {
            const chosen = ws.stations.find((s) => s.id === value);
            return chosen ? <span title={stationName(chosen)}>{stationNameIdFirst(chosen)}</span> : label;
          }}
          notFoundContent={t('monitor.noStations')}
          data-testid="identify-station"
        />
      )}
      {SHOW_EMPTY_CATEGORIES.includes(category.id) && (
        <Flex align="center" gap="small">
          <Switch
            size="small"
            checked={ws.showEmpty}
            onChange={ws.setShowEmpty}
            aria-labelledby={showEmptyId}
            data-testid="identify-show-empty"
          />
          <Typography.Text id={showEmptyId}>{t('identify.showEmpty')}</Typography.Text>
        </Flex>
      )}
      <Flex wrap gap="small" align="center">
        {creation === 'allowed' && (
          <Button size="small" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="identify-new-class">
            {t('identify.newClass')}
          </Button>
        )}
        {createHint && (
          <Tooltip title={createHint}>
            {/* A disabled button gets no pointer events: the span carries the tooltip. */}
            <span>
              <Button size="small" icon={<PlusOutlined />} disabled data-testid="identify-new-class">
                {t('identify.newClass')}
              </Button>
            </span>
          </Tooltip>
        )}
        {createHint && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="identify-new-class-hint">
            {createHint}
          </Typography.Text>
        )}
        {category.id === CATEGORY.RECYCLE && ws.isAdmin && !ws.session.demo && (
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            onClick={() => emptyGroup(CATEGORY.RECYCLE, t('identify.emptyBin'))}
            data-testid="identify-empty-bin"
          >
            {t('identify.emptyBin')}
          </Button>
        )}
        {category.id === CATEGORY.TEMPORARY && !ws.session.demo && (
          <Button
            size="small"
            danger
            icon={<ClearOutlined />}
            onClick={() => emptyGroup(CATEGORY.TEMPORARY, t('identify.clearTemporary'))}
            data-testid="identify-clear-temporary"
          >
            {t('identify.clearTemporary')}
          </Button>
        )}
        {isSite && ws.isAdmin && !ws.session.demo && (
          <Button size="small" icon={<ScanOutlined />} onClick={() => setReidentifying(true)} data-testid="identify-reidentify">
            {t('identify.reidentify.button')}
          </Button>
        )}
        {isSite && ws.isAdmin && !ws.session.demo && (
          <ClassVisibilityButton groupId={ws.groupId} isSuperadmin={ws.isSuperadmin} />
        )}
        {isSite && (
          <ClassTaxaButton groupId={ws.groupId} isSuperadmin={ws.isSuperadmin} canEdit={ws.isAdmin && !ws.session.demo} />
        )}
      </Flex>
      {shortcuts.length > 0 && (
        <Flex wrap gap={4} aria-label={t('identify.shortcuts')} data-testid="identify-shortcuts">
          {shortcuts.map((item) => (
            <Tag
              key={item.id}
              color={item.category_id === category.id && item.code === ws.code ? 'blue' : undefined}
              closable
              onClose={(event) => {
                event.preventDefault();
                deleteToolbar.mutate(item.id);
              }}
              style={{ cursor: 'pointer', marginInlineEnd: 0 }}
              onClick={() => ws.goTo(item.category_id, item.code)}
              data-testid={`identify-shortcut-${item.id}`}
            >
              {item.title}
            </Tag>
          ))}
        </Flex>
      )}
      <Divider style={{ margin: '4px 0' }} />
      {ws.stationMissing ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            ws.ipps.isPending
              ? t('common.loading')
              : ws.stations.length === 0
                ? t('monitor.noStations')
                : t('identify.pickStation')
          }
          data-testid="identify-no-station"
        />
      ) : (
        <>
          <div
            role="button"
            tabIndex={0}
            aria-pressed={ws.code === undefined}
            onClick={() => ws.selectNode(undefined)}
            onKeyDown={(event) => (event.key === 'Enter' || event.key === ' ') && ws.selectNode(undefined)}
            style={{
              padding: '2px 8px',
              borderRadius: token.borderRadiusSM,
              cursor: 'pointer',
              background: ws.code === undefined ? token.controlItemBgActive : undefined,
            }}
            data-testid="identify-node-all"
          >
            {t('identify.wholeCategory')}
          </div>
          <ClassTree
            key={`${category.id}|${station?.id ?? ''}|${ws.groupId ?? ''}|${ws.showEmpty}`}
            nodes={ws.treeNodes}
            loading={ws.tree.isPending}
            selectedCode={ws.code}
            onSelect={ws.selectNode}
            menuFor={(node: TreeNode) => nodeActions.menuFor(node)}
          />
        </>
      )}
      {nodeActions.element}
      {creating && (
        <ClassTitleModal
          title={t('identify.newClassTitle', { parent: parentTitle })}
          okText={t('common.save')}
          testId="identify-new-class"
          onSubmit={create}
          onClose={() => setCreating(false)}
        />
      )}
      {reidentifying && station && (
        <ReidentifyModal
          stations={ws.stations}
          initialStation={station.dev_id}
          tz={ws.tz}
          onClose={() => setReidentifying(false)}
          onSubmitted={(jobId) => setWatching((ids) => [...ids, jobId])}
        />
      )}
      {watching.map((jobId) => (
        <JobWatcher key={jobId} jobId={jobId} onEnded={stopWatching} />
      ))}
    </Flex>
  );
}
