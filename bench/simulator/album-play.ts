/**
 * One round of albums as a parent plays it in simulate:parents (docs/parent-app.md "Albums"): reads
 * its children's finished books, now and then customises one (another of the child's photos into a
 * photo slot, a new caption) as a new version, and orders the newest rendered version in print.
 */
import type { AppAlbumVersionSave } from '@campus/contract';
import type { Attempt } from './mall-play.js';
import type { ParentApp } from './parent-app.js';
import type { Random } from './random.js';

const CAPTIONS = ['第一次自己穿鞋', '和好朋友一起搭积木', '运动会跑了第一名', '秋游的银杏叶', '画了一家人'];
const ALBUM_RENDERED = 3;

export async function playAlbums(app: ParentApp, random: Random, attempt: Attempt, chances: { edit: number; order: number }): Promise<void> {
  const books = (await attempt('read album books', () => app.albumBooks())) ?? [];
  for (const book of books) {
    if (random.chance(chances.edit) && book.layout) {
      const photos = (await attempt('read album photos', () => app.albumPhotos(book.id))) ?? [];
      const changes: AppAlbumVersionSave['changes'] = [];
      for (const page of book.layout.pages) {
        const photoSlot = page.slots.findIndex((slot) => slot.kind === 'photo');
        const captionSlot = page.slots.findIndex((slot) => slot.kind === 'caption');
        if (photoSlot >= 0 && photos.length > 0 && changes.length < 2) changes.push({ page: page.page, slot: photoSlot, photoId: random.pick(photos).id });
        if (captionSlot >= 0 && changes.length < 3) changes.push({ page: page.page, slot: captionSlot, caption: random.pick(CAPTIONS) });
        if (changes.length >= 3) break;
      }
      if (changes.length > 0) await attempt('saved an album version', () => app.saveAlbumVersion({ bookId: book.id, changes }));
    }
    if (!random.chance(chances.order)) continue;
    const rendered = ((await attempt('read album versions', () => app.albumVersions(book.id))) ?? []).find((version) => version.state === ALBUM_RENDERED);
    // A book without a price for its spec answers 400: expected where the operator set none.
    await attempt(
      'ordered an album',
      () => app.orderAlbum({ bookId: book.id, kind: 1, copies: 1, consigneeName: '王芳', consigneePhone: '13800001234', deliveryAddress: '浙江省杭州市西湖区文三路 100 号', ...(rendered ? { versionNo: rendered.versionNo } : {}) }),
      [400],
    );
  }
}
