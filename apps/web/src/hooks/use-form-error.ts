import { App, type FormInstance } from 'antd';
import { useCallback } from 'react';
import { isApiError } from '@/api/api-error';

/**
 * Reports a failed form submission (sent with `silent`): a server 1002 that names one of the form's
 * fields puts the message under that field; anything else becomes one error toast. A dotted field
 * ("config.frame_rate") names a nested form field.
 */
export function useFormError<T>(form: FormInstance<T>, fields: readonly string[]) {
  const { message } = App.useApp();
  return useCallback(
    (error: unknown) => {
      if (isApiError(error) && error.kind === 'aborted') return;
      if (isApiError(error) && error.field && fields.includes(error.field)) {
        const name = error.field.split('.');
        form.setFields([{ name: name as never, errors: [error.message] }]);
        form.scrollToField(name as never);
        return;
      }
      void message.error(error instanceof Error ? error.message : String(error));
    },
    [form, fields, message],
  );
}
