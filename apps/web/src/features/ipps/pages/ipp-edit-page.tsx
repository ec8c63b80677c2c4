import { ArrowLeftOutlined, KeyOutlined } from '@ant-design/icons';
import type { Ipp } from '@ipp/contracts';
import { Alert, Button, Card, Flex, Result, Space, Spin, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ALL_TEAMS, useTeams } from '@/api/get-teams';
import { useUserInfo } from '@/api/get-user-info';
import { ConfirmAction } from '@/components/confirm-action';
import { LoadFailed } from '@/components/load-failed';
import { useSession } from '@/hooks/use-session';
import { useIpp } from '../api/get-ipp';
import { useRotateIppKey } from '../api/rotate-ipp-key';
import { ConfigHistory } from '../components/config-history';
import { DeviceKeyModal } from '../components/device-key-modal';
import type { TeamChoice } from '../components/general-fields';
import { IppForm } from '../components/ipp-form';
import { canManageIpps } from '../utils/ipp-rules';

const IPP_LIST_PATH = '/manage/ipp';

/** ?id=N edits that instrument; no id creates one. */
function parseId(raw: string | null): number | null | 'invalid' {
  if (raw === null || raw === '') return null;
  const id = Number(raw);
  return Number.isInteger(id) && id > 0 ? id : 'invalid';
}

interface IssuedKey {
  devId: string;
  key: string;
  /** A new instrument goes back to the list once its key is written down; a rotated one stays. */
  thenList: boolean;
}

export function IppEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { role } = useSession();
  const me = useUserInfo().data;
  const id = parseId(params.get('id'));
  const ipp = useIpp(typeof id === 'number' ? id : null);
  const isSuperadmin = role === 'superadmin';
  const canEdit = canManageIpps(role);
  const teams = useTeams(ALL_TEAMS, { enabled: isSuperadmin });
  const rotate = useRotateIppKey();
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const backToList = () => void navigate(IPP_LIST_PATH);

  // Only a superadmin chooses among teams; everyone else sees the instrument's team, or their own for a new one.
  let teamChoices: TeamChoice[];
  if (isSuperadmin) {
    teamChoices = teams.data?.items.map((team) => ({ value: team.id, label: team.name })) ?? [];
  } else if (ipp.data) {
    teamChoices = [{ value: ipp.data.group_id, label: ipp.data.group_name ?? String(ipp.data.group_id) }];
  } else {
    teamChoices = me?.group ? [{ value: me.group.id, label: me.group.name }] : [];
  }

  const rotateKey = async (current: Ipp) => {
    const result = await rotate.mutateAsync({ id: current.id });
    setIssued({ devId: result.ipp.dev_id, key: result.device_key, thenList: false });
  };

  const closeKey = () => {
    const thenList = issued?.thenList ?? false;
    setIssued(null);
    if (thenList) backToList();
  };

  let body;
  if (id === 'invalid') {
    body = <Result status="404" title={t('ipps.notFound')} />;
  } else if (id === null && !canEdit) {
    // A user has nothing to look at before an instrument exists.
    body = <Result status="403" title={t('ipps.readOnly')} data-testid="ipp-read-only" />;
  } else if (typeof id === 'number' && ipp.isPending) {
    body = <Spin description={t('common.loading')} />;
  } else if (typeof id === 'number' && ipp.isError) {
    body = <LoadFailed error={ipp.error} onRetry={() => void ipp.refetch()} />;
  } else {
    body = (
      <Flex vertical gap="middle">
        {!canEdit && <Alert type="info" showIcon title={t('ipps.readOnly')} data-testid="ipp-read-only" />}
        <IppForm
          key={ipp.data?.id ?? 'new'}
          ipp={ipp.data}
          teams={teamChoices}
          teamsLoading={isSuperadmin && teams.isPending}
          teamFixed={!isSuperadmin}
          defaultTeam={isSuperadmin ? null : (me?.group_id ?? null)}
          readOnly={!canEdit}
          onCreated={(created, key) => setIssued({ devId: created.dev_id, key, thenList: true })}
          onBack={backToList}
        />
        {ipp.data && <ConfigHistory key={`history-${ipp.data.id}`} ippId={ipp.data.id} />}
      </Flex>
    );
  }

  const current = ipp.data;
  let title = t('ipps.addTitle');
  if (typeof id === 'number') {
    title = current ? `${t('ipps.editTitle')} · ${current.site_name || current.dev_id} (${current.dev_id})` : t('ipps.editTitle');
  }
  return (
    <Card
      title={title}
      extra={
        <Space wrap>
          {current && (
            // The page asks again every few seconds (lib/live-poll.ts): when it last heard from the server.
            <Typography.Text type="secondary" data-testid="ipp-updated-at">
              {t('ipps.updatedAt', { time: dayjs(ipp.dataUpdatedAt).format('HH:mm:ss') })}
            </Typography.Text>
          )}
          {canEdit && current && (
            <ConfirmAction
              title={t('ipps.rotateConfirm')}
              description={t('ipps.rotateDescription')}
              okText={t('ipps.rotate')}
              onConfirm={() => rotateKey(current)}
            >
              <Button icon={<KeyOutlined />} data-testid="ipp-rotate-key">
                {t('ipps.rotateKey')}
              </Button>
            </ConfirmAction>
          )}
          <Button icon={<ArrowLeftOutlined />} onClick={backToList}>
            {t('common.back')}
          </Button>
        </Space>
      }
    >
      {body}
      {issued && <DeviceKeyModal devId={issued.devId} deviceKey={issued.key} onClose={closeKey} />}
    </Card>
  );
}
