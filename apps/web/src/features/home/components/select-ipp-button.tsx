import { StarOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Modal, Spin } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/hooks/use-session';
import { ippsQueryKey, viewsQueryKey } from '@/api/query-keys';

// The picker (and its team and station lists) loads on the first click, not with the overview.
const GroupViewTab = lazy(() =>
  import('@/features/group-view/components/group-view-tab').then((m) => ({ default: m.GroupViewTab })),
);

/**
 * "Select IPP" where every role reaches it (issue 20: plain users had it only on /manage/system, which they cannot
 * open): the stations the user follows, which the overview lists first.
 */
export function SelectIppButton() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  // The read-only demo account cannot save a choice, so it is not offered one.
  if (useSession().demo) return null;
  return (
    <>
      <Button size="small" icon={<StarOutlined />} onClick={() => setOpen(true)} data-testid="home-select-ipp">
        {t('groupView.tab')}
      </Button>
      <Modal
        open={open}
        title={t('groupView.tab')}
        footer={null}
        width={720}
        destroyOnHidden
        onCancel={() => setOpen(false)}
        data-testid="home-select-ipp-dialog"
      >
        <Suspense fallback={<Spin />}>
          <GroupViewTab
            onSaved={() => {
              setOpen(false);
              // The overview's followed-first order comes from the views; they are read again.
              void queryClient.invalidateQueries({ queryKey: viewsQueryKey });
              void queryClient.invalidateQueries({ queryKey: ippsQueryKey });
            }}
          />
        </Suspense>
      </Modal>
    </>
  );
}
