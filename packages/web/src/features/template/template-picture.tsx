import { useEffect, useState } from 'react';
import { Image, Skeleton } from 'antd';
import { pictureUrl } from './template-api.ts';

/** One picture of a template, fetched with the session and shown from an object URL. */
export function TemplatePicture({ path, alt }: { path: string; alt: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [isBroken, setBroken] = useState(false);
  useEffect(() => {
    let made: string | null = null;
    let isCurrent = true;
    pictureUrl(path).then(
      (u) => {
        made = u;
        if (isCurrent) setUrl(u);
        else URL.revokeObjectURL(u);
      },
      () => isCurrent && setBroken(true),
    );
    return () => {
      isCurrent = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [path]);
  if (isBroken) return null;
  if (!url) return <Skeleton.Image active style={{ width: 160, height: 100 }} />;
  return <Image src={url} alt={alt} width={160} height={100} style={{ objectFit: 'cover', borderRadius: 4 }} />;
}
