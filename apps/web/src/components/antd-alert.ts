// On demand (alert-on-demand.tsx).
export { Alert as default } from 'antd';
