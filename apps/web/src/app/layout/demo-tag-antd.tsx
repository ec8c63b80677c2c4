import { Tag } from 'antd';

export default function DemoTagAntd({ text }: { text: string }) {
  return (
    <Tag color="orange" data-testid="demo-tag">
      {text}
    </Tag>
  );
}
