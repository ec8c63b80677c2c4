import { LeftOutlined, RightOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import { ResultCode } from '@ipp/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Empty, Flex, Row, Skeleton, Tooltip, Typography, type ButtonProps } from 'antd';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '@/api/api-error';
import { LoadFailed } from '@/components/load-failed';
import { formatTime } from '@/lib/format';
import { imageDetailPath, parseIdParam } from '@/lib/monitor-paths';
import { stationName } from '@/lib/station-name';
import { roiDetailsQueryOptions, useRoiDetails } from '../api/get-roi-details';
import { useSetFavorite } from '../api/set-favorite';
import { RoiImage } from '../components/roi-image';
import { RoiMetadata } from '../components/roi-metadata';
import { TelemetryCard } from '../components/telemetry-card';
import { useArrowKeys } from '../hooks/use-arrow-keys';

/** The server's answers for an image the caller cannot see: it does not exist (or is another team's). */
function isMissing(error: unknown): boolean {
  return isApiError(error) && (error.code === ResultCode.BAD_PARAM || error.code === ResultCode.NOT_FOUND);
}

function NoImage() {
  const { t } = useTranslation();
  return (
    <Card>
      <Empty description={t('monitor.noImage')} data-testid="image-missing" />
    </Card>
  );
}

/** Image detail (spec §2): the original image, what is known of it, favourite, and the previous/next image. */
export function ImageDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const id = parseIdParam(params.get('id'));
  const details = useRoiDetails(id);
  const favorite = useSetFavorite();
  const { modal } = App.useApp();
  const data = details.data;
  const previousId = data?.previous_id ?? null;
  const nextId = data?.next_id ?? null;

  // Stepping through images replaces the entry: Back returns to where the user came from, not image by image.
  const goPrevious = useCallback(() => {
    if (previousId !== null) void navigate(imageDetailPath(previousId), { replace: true });
  }, [navigate, previousId]);
  const goNext = useCallback(() => {
    if (nextId !== null) void navigate(imageDetailPath(nextId), { replace: true });
  }, [navigate, nextId]);
  useArrowKeys(previousId === null ? null : goPrevious, nextId === null ? null : goNext);

  // The neighbours are likely next: fetch their details ahead.
  useEffect(() => {
    for (const neighbour of [previousId, nextId]) {
      if (neighbour !== null) void queryClient.prefetchQuery(roiDetailsQueryOptions(neighbour));
    }
  }, [previousId, nextId, queryClient]);

  if (id === null) return <NoImage />;
  if (details.isPending) {
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 10 }} />
      </Card>
    );
  }
  if (details.isError && !data) {
    return isMissing(details.error) ? <NoImage /> : <LoadFailed error={details.error} onRetry={() => void details.refetch()} />;
  }
  if (!data) return <NoImage />;

  const { roi } = data;
  const className = roi.class_name ?? t('monitor.unclassified');
  const isFavorite = roi.favorite;

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={14}>
        <Card
          size="small"
          title={`${className} · ${stationName(roi)}`}
          extra={
            <Button
              icon={isFavorite ? <StarFilled style={{ color: '#d48806' }} /> : <StarOutlined />}
              aria-pressed={isFavorite}
              loading={favorite.isPending}
              onClick={() =>
                // Spec §8: adding to (or taking out of) the favorite gallery asks first, as it does in /identify.
                modal.confirm({
                  title: isFavorite ? t('image.unfavoriteConfirm') : t('image.favoriteConfirm'),
                  okText: t('common.ok'),
                  cancelText: t('common.cancel'),
                  okButtonProps: { 'data-testid': 'confirm-ok' } as ButtonProps,
                  onOk: () => favorite.mutate({ roi_id: roi.id, favorite: !isFavorite }),
                })
              }
              data-testid="image-favorite"
            >
              {isFavorite ? t('image.unfavorite') : t('image.favorite')}
            </Button>
          }
        >
          <Flex vertical gap="middle">
            <RoiImage roi={roi} alt={`${className}, ${stationName(roi)}, ${formatTime(roi.roi_time)}`} />
            <Flex justify="space-between" align="center" gap="small">
              <Tooltip title={t('image.previousHint')}>
                <Button icon={<LeftOutlined />} disabled={previousId === null} onClick={goPrevious} data-testid="image-prev">
                  {t('image.previous')}
                </Button>
              </Tooltip>
              <Typography.Text type="secondary">{formatTime(roi.roi_time)}</Typography.Text>
              <Tooltip title={t('image.nextHint')}>
                <Button disabled={nextId === null} onClick={goNext} data-testid="image-next">
                  {t('image.next')} <RightOutlined />
                </Button>
              </Tooltip>
            </Flex>
          </Flex>
        </Card>
      </Col>
      <Col xs={24} xl={10}>
        <Flex vertical gap="middle">
          <Card size="small" title={t('image.metadata')}>
            <RoiMetadata roi={roi} />
          </Card>
          <TelemetryCard telemetry={data.telemetry} />
        </Flex>
      </Col>
    </Row>
  );
}
