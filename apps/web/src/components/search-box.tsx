import { SearchOutlined } from '@ant-design/icons';
import { Button, Input, Space } from 'antd';
import { useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';

interface SearchBoxProps {
  placeholder: string;
  /** Test id of the input; the button gets `${testId}-submit`. */
  testId: string;
  onSearch: (value: string) => void;
  style?: CSSProperties;
}

/** A search input with its button: Enter or the button searches, and clearing the box shows everything again. */
export function SearchBox({ placeholder, testId, onSearch, style }: SearchBoxProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  return (
    <Space.Compact style={style}>
      <Input
        type="search"
        allowClear
        value={draft}
        placeholder={placeholder}
        aria-label={placeholder}
        onChange={(event) => {
          setDraft(event.target.value);
          if (event.target.value === '') onSearch('');
        }}
        onPressEnter={() => onSearch(draft)}
        data-testid={testId}
      />
      <Button type="primary" icon={<SearchOutlined />} onClick={() => onSearch(draft)} data-testid={`${testId}-submit`}>
        {t('common.search')}
      </Button>
    </Space.Compact>
  );
}
