import type { AlertProps } from 'antd';
import { onDemand } from './on-demand';

/**
 * antd's Alert, loaded when one first shows: the sign-in page shows one only after a failure. Until then the message
 * shows plainly.
 */
export const AlertOnDemand = onDemand<AlertProps & { 'data-testid'?: string }>(
  () => import('./antd-alert'),
  ({ title, role, style, 'data-testid': testId }) => (
    <div role={role} style={style} data-testid={testId}>
      {title}
    </div>
  ),
);
