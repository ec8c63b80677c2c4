import { DownloadOutlined } from '@ant-design/icons';
import type { EcologyClass, Period, SiteEcology } from '@ipp/contracts';
import { ECOLOGY_MAX_CLASSES } from '@ipp/contracts';
import { Alert, App, Button, Card, Col, Descriptions, Empty, Flex, Row, Select, Skeleton, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadFailed } from '@/components/load-failed';
import { EChart } from '@/components/echart/echart';
import { useFormatCount } from '@/hooks/use-format-count';
import { useSession } from '@/hooks/use-session';
import { useTimeFormats } from '@/hooks/use-time-formats';
import { downloadBlob } from '@/lib/download';
import { exportSiteEcology, useSiteEcology } from '../api/get-site-ecology';
import { ecologySeriesOption, formatScientific, nbssOption } from '../utils/ecology-charts';
import { siteBucketAxis } from '../utils/site-charts';

/**
 * Ecology products of the station over the period (docs/ecology.md): for a selection of classes (none = every
 * class), the concentration in individuals per litre, the biovolume concentration in mm³ per litre and the
 * normalized biovolume size spectrum, each downloadable as CSV. Without the station's pixel size the biovolume and
 * the NBSS are not guessed: the card says so and points administrators to the instrument form.
 */
export function EcologyCard({ devId, period }: { devId: string; period: Period }) {
  const { t } = useTranslation();
  const [classes, setClasses] = useState<number[]>([]);
  const ecology = useSiteEcology(devId, period, classes);
  const data = ecology.data;

  let content;
  if (ecology.isPending) content = <Skeleton active paragraph={{ rows: 6 }} />;
  else if (ecology.isError && !data) content = <LoadFailed error={ecology.error} onRetry={() => void ecology.refetch()} />;
  else if (data) content = <EcologyBody data={data} asOf={ecology.dataUpdatedAt} />;

  return (
    <Card
      size="small"
      title={t('ecology.title')}
      data-testid="ecology-card"
      extra={
        <Flex gap="small" align="center" wrap>
          <Select<number[]>
            mode="multiple"
            allowClear
            maxCount={ECOLOGY_MAX_CLASSES}
            maxTagCount="responsive"
            value={classes}
            onChange={setClasses}
            placeholder={t('ecology.allClasses')}
            aria-label={t('ecology.classes')}
            style={{ width: 300 }}
            loading={ecology.isFetching}
            options={(data?.classes ?? []).map((c) => ({ value: c.class_id ?? 0, label: <ClassLabel item={c} /> }))}
            optionFilterProp="title"
            data-testid="ecology-classes"
          />
          <CsvButton devId={devId} period={period} classes={classes} table="series" />
          <CsvButton devId={devId} period={period} classes={classes} table="nbss" disabled={!data || data.nbss.length === 0} />
        </Flex>
      }
    >
      {content}
    </Card>
  );
}

function ClassLabel({ item }: { item: EcologyClass }) {
  const { t } = useTranslation();
  const formatCount = useFormatCount();
  return (
    <span title={item.name ?? t('monitor.unclassified')}>
      {item.name ?? t('monitor.unclassified')} <Typography.Text type="secondary">({formatCount(item.count)})</Typography.Text>
    </span>
  );
}

function EcologyBody({ data, asOf }: { data: SiteEcology; asOf: number }) {
  const { t } = useTranslation();
  const formats = useTimeFormats();
  const formatCount = useFormatCount();
  const { role } = useSession();
  const withPixelSize = data.pixel_size_um !== null;
  const charts = useMemo(() => {
    const axis = siteBucketAxis(data, formats, asOf);
    return {
      series: ecologySeriesOption(
        axis,
        data.buckets,
        {
          concentration: t('ecology.concentration'),
          biovolume: t('ecology.biovolumeConcentration'),
          perLitre: t('ecology.perLitre'),
          mm3PerLitre: t('ecology.mm3PerLitre'),
        },
        withPixelSize,
      ),
      nbss: nbssOption(data.nbss, {
        seriesName: (s) => {
          const name = s.total ? t('ecology.selection') : (s.name ?? t('monitor.unclassified'));
          return s.slope === null ? name : t('ecology.withSlope', { name, slope: s.slope.toFixed(2) });
        },
        xAxis: t('ecology.nbssX'),
        yAxis: t('ecology.nbssY'),
        point: (p) => t('ecology.nbssPoint', p),
      }),
    };
  }, [data, formats, asOf, t, withPixelSize]);

  const hasWater = data.volume_l > 0;
  return (
    <Flex vertical gap="middle">
      <Descriptions
        size="small"
        column={{ xs: 1, md: 3, xl: 6 }}
        data-testid="ecology-summary"
        items={[
          {
            key: 'rois',
            label: t('ecology.rois'),
            children: t('ecology.roisMeasured', {
              count: data.count,
              total: formatCount(data.count),
              measured: formatCount(data.measured),
            }),
          },
          { key: 'volume', label: t('detail.volume'), children: `${formatScientific(data.volume_l)} L` },
          {
            key: 'concentration',
            label: t('ecology.concentration'),
            children: (
              <span data-testid="ecology-concentration">{`${formatScientific(data.concentration_per_l)} ${t('ecology.perLitre')}`}</span>
            ),
          },
          {
            key: 'biovolume',
            label: t('ecology.biovolume'),
            children: (
              <span data-testid="ecology-biovolume">{withPixelSize ? `${formatScientific(data.biovolume_mm3)} mm³` : '—'}</span>
            ),
          },
          {
            key: 'biovolume-concentration',
            label: t('ecology.biovolumeConcentration'),
            children: (
              <span data-testid="ecology-biovolume-concentration">
                {withPixelSize ? `${formatScientific(data.biovolume_mm3_per_l)} ${t('ecology.mm3PerLitre')}` : '—'}
              </span>
            ),
          },
          {
            key: 'pixel',
            label: t('ecology.pixelSize'),
            children: withPixelSize ? `${data.pixel_size_um} µm` : t('ecology.pixelSizeUnknown'),
          },
        ]}
      />
      {!withPixelSize && (
        <Alert
          type="warning"
          showIcon
          data-testid="ecology-no-pixel-size"
          title={t('ecology.noPixelSize')}
          description={
            role === 'user' ? (
              t('ecology.noPixelSizeAsk')
            ) : (
              <Link to={`/manage/ipp_edit?id=${data.ipp_id}`}>{t('ecology.setPixelSize')}</Link>
            )
          }
        />
      )}
      {!hasWater ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('detail.noVolume')} />
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={12}>
            <Typography.Text strong>{t('ecology.seriesTitle')}</Typography.Text>
            <EChart option={charts.series} testId="ecology-series" height={320} label={t('ecology.seriesSummary')} />
          </Col>
          <Col xs={24} xl={12}>
            <Typography.Text strong>{t('ecology.nbssTitle')}</Typography.Text>
            {data.nbss.length > 0 ? (
              <EChart option={charts.nbss} testId="ecology-nbss" height={320} label={t('ecology.nbssSummary')} />
            ) : (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={withPixelSize ? t('ecology.nbssEmpty') : t('ecology.noPixelSize')}
                data-testid="ecology-nbss-empty"
              />
            )}
          </Col>
        </Row>
      )}
      <Typography.Paragraph type="secondary" style={{ margin: 0, fontSize: 12 }}>
        {t('ecology.method')}
      </Typography.Paragraph>
    </Flex>
  );
}

function CsvButton({
  devId,
  period,
  classes,
  table,
  disabled,
}: {
  devId: string;
  period: Period;
  classes: number[];
  table: 'series' | 'nbss';
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      const file = await exportSiteEcology(devId, period, classes, table);
      downloadBlob(file.filename ?? `${devId}-${period}-${table}.csv`, file.blob);
      void message.success(t('detail.downloaded'));
    } catch {
      // The client has already said why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      icon={<DownloadOutlined />}
      loading={busy}
      disabled={disabled}
      onClick={() => void start()}
      data-testid={`ecology-csv-${table}`}
    >
      {t(table === 'series' ? 'ecology.csvSeries' : 'ecology.csvNbss')}
    </Button>
  );
}
