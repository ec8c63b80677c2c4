import { EyeInvisibleOutlined } from '@ant-design/icons';
import type { ClassItem } from '@ipp/contracts';
import { Alert, App, Button, Input, Modal, Switch, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@/api/client';
import { useTeamClasses } from '@/api/get-classes';
import { useIdentifyMutation } from '../api/use-identify-mutation';
import * as EP from '@ipp/contracts/endpoints';

/** POST /roi-index/change-status with a class: shown to (1) or hidden from (0) one team's plain users. */
function setClassVisible(body: { class_id: number; status: 0 | 1; group_id?: number }): Promise<unknown> {
  return api.post(EP.roiIndexChangeStatus, body);
}

interface ClassVisibilityButtonProps {
  /** The team whose users' view is changed: the superadmin's chosen team (none: all teams, nothing to change). */
  groupId: number | undefined;
  isSuperadmin: boolean;
}

/**
 * Spec §3/§4 "classes are user visible or invisible" (issue 20): a team's administrators show or hide classes for
 * their own team's plain users; other teams are not affected (docs/decisions.md "Class ownership").
 */
export function ClassVisibilityButton({ groupId, isSuperadmin }: ClassVisibilityButtonProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" icon={<EyeInvisibleOutlined />} onClick={() => setOpen(true)} data-testid="identify-class-visibility">
        {t('identify.classVisibility.button')}
      </Button>
      {open && (
        <ClassVisibilityModal
          groupId={groupId}
          isSuperadmin={isSuperadmin}
          needTeam={isSuperadmin && groupId === undefined}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

interface ClassVisibilityModalProps {
  groupId: number | undefined;
  isSuperadmin: boolean;
  needTeam: boolean;
  onClose: () => void;
}

function ClassVisibilityModal({ groupId, isSuperadmin, needTeam, onClose }: ClassVisibilityModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const classes = useTeamClasses(groupId, !needTeam);
  const change = useIdentifyMutation(setClassVisible);
  const [filter, setFilter] = useState('');
  const [pending, setPending] = useState<number | null>(null);

  const rows = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return (classes.data ?? []).filter((c) => needle === '' || c.title.toLowerCase().includes(needle));
  }, [classes.data, filter]);

  const toggle = (item: ClassItem, visible: boolean) => {
    setPending(item.id);
    change.mutate(
      { class_id: item.id, status: visible ? 1 : 0, ...(groupId === undefined ? {} : { group_id: groupId }) },
      {
        onSuccess: () =>
          void message.success(
            t(visible ? 'identify.classVisibility.shown' : 'identify.classVisibility.hidden', { title: item.title }),
          ),
        onSettled: () => setPending(null),
      },
    );
  };

  // A team's class: the caller's own team's (it may change it) or another's; the superadmin sees them all alike.
  const ownerLabel = (owner: ClassItem['owner'], item: ClassItem) =>
    t(`identify.classVisibility.owner.${owner !== 'team' || isSuperadmin ? owner : item.editable ? 'team_own' : 'team_other'}`);

  return (
    <Modal
      open
      title={t('identify.classVisibility.title')}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('identify.classVisibility.close')}</Button>}
      width={640}
      data-testid="class-visibility-modal"
    >
      <Typography.Paragraph type="secondary">{t('identify.classVisibility.intro')}</Typography.Paragraph>
      {needTeam ? (
        <Alert type="info" showIcon message={t('identify.classVisibility.pickTeam')} data-testid="class-visibility-pick-team" />
      ) : (
        <>
          <Input.Search
            allowClear
            placeholder={t('identify.classVisibility.search')}
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            style={{ marginBottom: 8 }}
            data-testid="class-visibility-search"
          />
          <Table<ClassItem>
            size="small"
            rowKey="id"
            loading={classes.isPending}
            dataSource={rows}
            pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
            scroll={{ y: 420 }}
            columns={[
              {
                title: t('identify.classVisibility.class'),
                dataIndex: 'title',
                render: (title: string, item) => (
                  <span data-testid={`class-visibility-row-${item.id}`}>
                    {title}
                    {!item.visible && (
                      <Tag color="default" style={{ marginInlineStart: 8 }} data-testid={`class-visibility-hidden-${item.id}`}>
                        {t('identify.classVisibility.hiddenTag')}
                      </Tag>
                    )}
                  </span>
                ),
              },
              {
                title: t('identify.classVisibility.ownerColumn'),
                dataIndex: 'owner',
                width: 140,
                render: (owner: ClassItem['owner'], item) => ownerLabel(owner, item),
              },
              {
                title: t('identify.classVisibility.shownColumn'),
                dataIndex: 'visible',
                width: 150,
                render: (visible: boolean, item) => (
                  <Switch
                    size="small"
                    checked={visible}
                    loading={pending === item.id}
                    disabled={pending !== null}
                    onChange={(next) => toggle(item, next)}
                    aria-label={t('identify.classVisibility.toggle', { title: item.title })}
                    data-testid={`class-visibility-switch-${item.id}`}
                  />
                ),
              },
            ]}
          />
        </>
      )}
    </Modal>
  );
}
