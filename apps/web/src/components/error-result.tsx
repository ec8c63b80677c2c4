import type { ReactNode } from 'react';
import { onDemand } from './on-demand';

export interface ErrorResultProps {
  title: ReactNode;
  subTitle: ReactNode;
  extra: ReactNode;
  'data-testid'?: string;
}

/**
 * antd's error Result, loaded when an error screen first shows: with the 403/404/500 illustrations it weighs 10 KB of
 * gzip that the sign-in page and the shell do not need. Until then (or if the network is gone) the same content shows
 * plainly.
 */
export const ErrorResult = onDemand<ErrorResultProps>(
  () => import('./antd-result'),
  ({ title, subTitle, extra, 'data-testid': testId }) => (
    <div className="error-result" role="alert" data-testid={testId}>
      <div className="error-result__title">{title}</div>
      <div className="error-result__subtitle">{subTitle}</div>
      <div className="error-result__extra">{extra}</div>
    </div>
  ),
);
