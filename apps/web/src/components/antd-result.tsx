import { Result } from 'antd';
import type { ErrorResultProps } from './error-result';

// On demand (error-result.tsx): antd's Result, which carries the illustrations of every status.
export default function AntdErrorResult(props: ErrorResultProps) {
  return <Result status="error" {...props} />;
}
