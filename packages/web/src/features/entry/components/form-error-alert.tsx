import { Alert } from 'antd';

/** The message of a failed submit, above the button where the eye already is. */
export function FormErrorAlert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return <Alert type="error" showIcon title={message} style={{ marginBottom: 16 }} />;
}
