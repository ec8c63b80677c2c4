import type { RoiSummary } from '@ipp/contracts';
import { Empty } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { imageUrl } from '@/api/client';

const FRAME = {
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  minHeight: 320,
  background: '#1f1f1f',
  borderRadius: 6,
  padding: 8,
} as const;

/** The original image, as large as the page allows; "No image resource" when it cannot be loaded. */
export function RoiImage({ roi, alt }: { roi: RoiSummary; alt: string }) {
  const { t } = useTranslation();
  const url = imageUrl(roi.url);
  // Reset when another image is shown: the broken flag belongs to one address.
  const [broken, setBroken] = useState<string | null>(null);
  return (
    <div style={FRAME}>
      {broken === url ? (
        <Empty description={<span style={{ color: '#d9d9d9' }}>{t('monitor.noImage')}</span>} data-testid="image-broken" />
      ) : (
        <img
          key={url}
          src={url}
          alt={alt}
          width={roi.width || undefined}
          height={roi.height || undefined}
          onError={() => setBroken(url)}
          data-testid="image-view"
          style={{
            maxWidth: '100%',
            maxHeight: '70vh',
            width: 'auto',
            height: 'auto',
            objectFit: 'contain',
            imageRendering: 'auto',
          }}
        />
      )}
    </div>
  );
}
