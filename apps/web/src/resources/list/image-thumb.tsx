import { Image } from 'antd';

/**
 * An image field's value in a table cell: a 36 px thumbnail that opens antd's preview when clicked.
 * `alt` (the field's label) names both the picture and the button that opens its preview.
 */
export function ImageThumb({ src, alt }: { src: string; alt: string }) {
  return <Image src={src} alt={alt} width={36} height={36} style={{ objectFit: 'cover' }} />;
}
