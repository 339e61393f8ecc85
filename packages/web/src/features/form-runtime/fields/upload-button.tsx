/** The file input behind the attachment and photo fields' upload buttons, and the messages of refused files. */
import { useRef, type ReactNode } from 'react';
import { Button, Typography } from 'antd';

const visuallyHidden = { position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden' } as const;

export interface UploadButtonProps {
  id: string;
  label: string;
  icon: ReactNode;
  accept?: string;
  multiple?: boolean;
  loading?: boolean;
  disabled?: boolean;
  onFiles: (files: File[]) => void;
}

/** A button that opens the file chooser; the input itself carries the field's id and the label, for the form and for tests. */
export function UploadButton({ id, label, icon, accept, multiple = true, loading, disabled, onFiles }: UploadButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <span style={{ position: 'relative', display: 'inline-block' }}>
      <input
        ref={input}
        id={id}
        type="file"
        aria-label={label}
        accept={accept}
        multiple={multiple}
        disabled={disabled}
        tabIndex={-1}
        style={visuallyHidden}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          // The same file may be picked again after it was removed.
          event.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
      <Button icon={icon} loading={loading} disabled={disabled} onClick={() => input.current?.click()}>
        {label}
      </Button>
    </span>
  );
}

export function UploadErrors({ errors }: { errors: string[] }) {
  if (!errors.length) return null;
  return (
    <div role="alert">
      {errors.map((error) => (
        <Typography.Text key={error} type="danger" style={{ display: 'block' }}>
          {error}
        </Typography.Text>
      ))}
    </div>
  );
}
