import { Image } from 'antd';

/** An image field's value in a table cell: a 36 px thumbnail that opens antd's preview when clicked. */
export function ImageThumb({ src }: { src: string }) {
  return <Image src={src} width={36} height={36} style={{ objectFit: 'cover' }} />;
}
