import { Button, Flex, Spin, Typography } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface LazyWidgetFrameProps {
  height: number;
  /** The widget's own element (it renders into a div the frame positions). */
  children: ReactNode;
  loading: boolean;
  failed: boolean;
  failedText: string;
  onRetry: () => void;
  /** Above the widget's own layers (Leaflet panes go up to 1000). */
  overlayZIndex?: number;
}

/** The box around a lazily loaded widget: a spinner while its code loads, a message with Retry when it failed. */
export function LazyWidgetFrame({ height, children, loading, failed, failedText, onRetry, overlayZIndex }: LazyWidgetFrameProps) {
  const { t } = useTranslation();
  const overlay: CSSProperties = { position: 'absolute', inset: 0, zIndex: overlayZIndex };
  return (
    <div style={{ position: 'relative', height }}>
      {children}
      {loading && !failed && (
        <Flex align="center" justify="center" style={overlay}>
          <Spin />
        </Flex>
      )}
      {failed && (
        <Flex vertical align="center" justify="center" gap="small" style={overlay}>
          <Typography.Text type="secondary">{failedText}</Typography.Text>
          <Button onClick={onRetry}>{t('common.retry')}</Button>
        </Flex>
      )}
    </div>
  );
}
