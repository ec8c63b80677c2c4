import { BookOutlined } from '@ant-design/icons';
import {
  APHIA_ID_MAX,
  SavedClassTaxonSchema,
  TAXON_NAME_MAX,
  TAXON_NAME_PATTERN,
  TAXON_ZH_MAX,
  type ClassItem,
  type SaveClassTaxonBody,
} from '@ipp/contracts';
import { Alert, App, Button, Form, Input, InputNumber, Modal, Space, Table, Tag, Typography, type ButtonProps } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, parseData } from '@/api/client';
import { useTeamClasses } from '@/api/get-classes';
import { wormsUrl } from '@/lib/taxon';
import { useIdentifyMutation } from '../api/use-identify-mutation';
import * as EP from '@ipp/contracts/endpoints';

/** POST /taxa/save-class-taxon. */
async function saveClassTaxon(body: SaveClassTaxonBody) {
  return parseData(SavedClassTaxonSchema, await api.post(EP.taxaSaveClassTaxon, body));
}

interface ClassTaxaButtonProps {
  /** The team whose mapping is shown: the superadmin's chosen team (none: the starter list, nothing to change). */
  groupId: number | undefined;
  isSuperadmin: boolean;
  /** The team's administrators (and the superadmin with a team) may change it; everyone else reads it. */
  canEdit: boolean;
}

/**
 * Issue 22 "Taxonomy": the taxon each class stands for in this team (Latin name as EcoTaxa knows it, WoRMS AphiaID,
 * Chinese name). The EcoTaxa export writes it; an EcoTaxa import finds classes by it (docs/ecotaxa.md).
 */
export function ClassTaxaButton({ groupId, isSuperadmin, canEdit }: ClassTaxaButtonProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" icon={<BookOutlined />} onClick={() => setOpen(true)} data-testid="identify-class-taxa">
        {t('identify.taxa.button')}
      </Button>
      {open && (
        <ClassTaxaModal
          groupId={groupId}
          needTeam={isSuperadmin && groupId === undefined}
          canEdit={canEdit && !(isSuperadmin && groupId === undefined)}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

function ClassTaxaModal({
  groupId,
  needTeam,
  canEdit,
  onClose,
}: {
  groupId: number | undefined;
  needTeam: boolean;
  canEdit: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const classes = useTeamClasses(groupId, true);
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<ClassItem | null>(null);

  const rows = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return (classes.data ?? []).filter(
      (c) =>
        needle === '' ||
        [c.title, c.taxon?.name ?? '', c.taxon?.name_zh ?? ''].some((text) => text.toLowerCase().includes(needle)),
    );
  }, [classes.data, filter]);

  return (
    <Modal
      open
      title={t('identify.taxa.title')}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('identify.classVisibility.close')}</Button>}
      width={920}
      data-testid="class-taxa-modal"
    >
      <Typography.Paragraph type="secondary">{t('identify.taxa.intro')}</Typography.Paragraph>
      {needTeam && <Alert type="info" showIcon title={t('identify.taxa.pickTeam')} style={{ marginBottom: 8 }} />}
      <Input.Search
        allowClear
        placeholder={t('identify.taxa.search')}
        value={filter}
        onChange={(event) => setFilter(event.target.value)}
        style={{ marginBottom: 8 }}
        data-testid="class-taxa-search"
      />
      <Table<ClassItem>
        size="small"
        rowKey="id"
        loading={classes.isPending}
        dataSource={rows}
        pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
        tableLayout="fixed"
        columns={[
          {
            title: t('identify.taxa.class'),
            dataIndex: 'title',
            width: 190,
            ellipsis: { showTitle: true },
            render: (title: string, item) => <span data-testid={`class-taxa-row-${item.id}`}>{title}</span>,
          },
          {
            title: t('identify.taxa.latin'),
            key: 'latin',
            width: 180,
            ellipsis: { showTitle: true },
            render: (_, item) =>
              item.taxon ? (
                <i data-testid={`class-taxa-name-${item.id}`}>{item.taxon.name}</i>
              ) : (
                <Typography.Text type="secondary">—</Typography.Text>
              ),
          },
          {
            title: t('identify.taxa.aphia'),
            key: 'aphia',
            width: 130,
            render: (_, item) =>
              item.taxon?.aphia_id ? (
                <Typography.Link href={wormsUrl(item.taxon.aphia_id)} target="_blank" rel="noreferrer">
                  {item.taxon.aphia_id}
                </Typography.Link>
              ) : (
                <Typography.Text type="secondary">—</Typography.Text>
              ),
          },
          {
            title: t('identify.taxa.zh'),
            key: 'zh',
            width: 140,
            ellipsis: { showTitle: true },
            render: (_, item) => item.taxon?.name_zh ?? <Typography.Text type="secondary">—</Typography.Text>,
          },
          {
            title: t('identify.taxa.source'),
            key: 'source',
            width: 120,
            render: (_, item) => (
              <Tag color={item.taxon?.source === 'team' ? 'blue' : 'default'} data-testid={`class-taxa-source-${item.id}`}>
                {t(`identify.taxa.sources.${item.taxon?.source ?? 'none'}`)}
              </Tag>
            ),
          },
          ...(canEdit
            ? [
                {
                  title: t('identify.taxa.actions'),
                  key: 'edit',
                  width: 90,
                  render: (_: unknown, item: ClassItem) => (
                    <Button size="small" onClick={() => setEditing(item)} data-testid={`class-taxa-edit-${item.id}`}>
                      {t('identify.taxa.edit')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing && <TaxonForm item={editing} groupId={groupId} onClose={() => setEditing(null)} />}
    </Modal>
  );
}

interface TaxonValues {
  taxon_name: string;
  aphia_id: number | null;
  name_zh: string;
}

/** One class's taxon for the team: save it, say "no taxon" (an empty name), or go back to the starter list. */
function TaxonForm({ item, groupId, onClose }: { item: ClassItem; groupId: number | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TaxonValues>();
  const save = useIdentifyMutation(saveClassTaxon);
  const team = groupId === undefined ? {} : { group_id: groupId };

  const send = (body: SaveClassTaxonBody, done: string) =>
    save.mutate(body, {
      onSuccess: () => {
        void message.success(done);
        onClose();
      },
    });

  const submit = (values: TaxonValues) =>
    send(
      {
        class_id: item.id,
        ...team,
        taxon_name: values.taxon_name?.trim() ?? '',
        aphia_id: values.aphia_id ?? null,
        name_zh: values.name_zh?.trim() || null,
      },
      t('identify.taxa.saved', { title: item.title }),
    );

  return (
    <Modal
      open
      title={t('identify.taxa.editTitle', { title: item.title })}
      onCancel={() => !save.isPending && onClose()}
      destroyOnHidden
      okText={t('identify.taxa.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'class-taxa-save' } as ButtonProps}
      data-testid="class-taxa-form"
    >
      <Form<TaxonValues>
        form={form}
        layout="vertical"
        initialValues={{
          taxon_name: item.taxon?.name ?? '',
          aphia_id: item.taxon?.aphia_id ?? null,
          name_zh: item.taxon?.name_zh ?? '',
        }}
        onFinish={submit}
      >
        <Form.Item
          name="taxon_name"
          label={t('identify.taxa.latin')}
          extra={t('identify.taxa.latinHelp')}
          rules={[
            { max: TAXON_NAME_MAX, message: t('identify.taxa.tooLong', { max: TAXON_NAME_MAX }) },
            {
              // As the server reads it: trimmed first.
              validator: (_, value?: string) =>
                !value?.trim() || TAXON_NAME_PATTERN.test(value.trim())
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('identify.taxa.latinInvalid'))),
            },
          ]}
        >
          <Input maxLength={TAXON_NAME_MAX} placeholder="Copepoda" data-testid="class-taxa-input-name" />
        </Form.Item>
        <Form.Item name="aphia_id" label={t('identify.taxa.aphia')} extra={t('identify.taxa.aphiaHelp')}>
          <InputNumber min={1} max={APHIA_ID_MAX} precision={0} style={{ width: 200 }} data-testid="class-taxa-input-aphia" />
        </Form.Item>
        <Form.Item
          name="name_zh"
          label={t('identify.taxa.zh')}
          rules={[{ max: TAXON_ZH_MAX, message: t('identify.taxa.tooLong', { max: TAXON_ZH_MAX }) }]}
        >
          <Input maxLength={TAXON_ZH_MAX} placeholder="桡足类" data-testid="class-taxa-input-zh" />
        </Form.Item>
      </Form>
      {item.taxon?.source === 'team' && (
        <Space>
          <Button
            size="small"
            disabled={save.isPending}
            onClick={() => send({ class_id: item.id, ...team, reset: true }, t('identify.taxa.resetDone', { title: item.title }))}
            data-testid="class-taxa-reset"
          >
            {t('identify.taxa.reset')}
          </Button>
        </Space>
      )}
    </Modal>
  );
}
