import { AlbumOrder, DeviceClass, EducationCourseware, License, MaintenanceTicket, RESOURCES, RecognitionRecord, School, Student, type ResourceDef } from '@campus/contract';
import { render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildColumns } from './columns';
import { allowedRowActions, allowedToolbar } from '../shared/permissions';
import type { ResourceRow } from '../shared/resource-api';
import { withSchoolAddressColumn } from '../school/school-address-column';
import { setLocale, translate } from '../../lib/i18n';

const keysOf = (columns: { key: string }[]) => columns.map((column) => column.key);

describe('buildColumns', () => {
  it('lists the listed fields only', () => {
    const keys = keysOf(buildColumns(School, { locale: 'zh-CN', hideAmountColumns: false }));
    expect(keys).toContain('schoolName');
    expect(keys).not.toContain('schoolAddress'); // list: false
    expect(keys).not.toContain('salesTeamId');
  });

  it('removes money columns for accounts with hideAmountColumns', () => {
    const shown = keysOf(buildColumns(DeviceClass, { locale: 'en', hideAmountColumns: false }));
    const hidden = keysOf(buildColumns(DeviceClass, { locale: 'en', hideAmountColumns: true }));
    expect(shown).toEqual(expect.arrayContaining(['licensePrice1', 'licensePrice4']));
    expect(hidden.some((key) => key.startsWith('licensePrice'))).toBe(false);
    expect(hidden).toContain('name');
  });

  it('shows measurements with two decimals at most, without float noise', () => {
    const column = buildColumns(RecognitionRecord, { locale: 'zh-CN', hideAmountColumns: false }).find((candidate) => candidate.key === 'temperature')!;
    const text = (value: number) => render(<>{column.render?.(value, { id: 1, version: 1, temperature: value }, 0) as React.ReactNode}</>).container.textContent;
    expect(text(36.2 + 0.2)).toBe('36.4');
    expect(text(93.456)).toBe('93.46');
    expect(text(37)).toBe('37');
  });

  it('shows a length of time as a player does', () => {
    const column = buildColumns(EducationCourseware, { locale: 'zh-CN', hideAmountColumns: false }).find((candidate) => candidate.key === 'durationSeconds')!;
    expect(render(<>{column.render?.(184, { id: 1, version: 1, durationSeconds: 184 }, 0) as React.ReactNode}</>).container.textContent).toBe('3:04');
  });

  it('widens a toggle for the switch its label is drawn in, beyond what the same label needs as a tag', () => {
    const release = RESOURCES.MarketCommodityRelease!;
    const toggle = release.toggles!.find((candidate) => candidate.field === 'enabled')!;
    const widthOf = (options: Partial<Parameters<typeof buildColumns>[1]>) =>
      buildColumns(release, { locale: 'en', hideAmountColumns: false, ...options }).find((column) => column.key === 'enabled')!.width as number;
    const asTag = widthOf({});
    const asSwitch = widthOf({ toggles: [toggle], onToggle: () => undefined });
    expect(asSwitch).toBeGreaterThan(asTag);
  });

  it('hides the fields a view fixes', () => {
    expect(keysOf(buildColumns(License, { locale: 'en', hideAmountColumns: false, hiddenFields: new Set(['useFor']) }))).not.toContain('useFor');
  });

  it('renders enums as labelled tags, money as yuan and references by their label', () => {
    const row: ResourceRow = { id: 1, version: 1, state: 0, licensePrice1: 123456, deviceClassCode: 'G1', deviceClassCodeLabel: 'Gate one' };
    const cell = (def: typeof School | typeof DeviceClass, key: string) => {
      const column = buildColumns(def, { locale: 'en', hideAmountColumns: false }).find((candidate) => candidate.key === key)!;
      return render(<>{column.render?.(row[key], row, 0) as React.ReactNode}</>).container.textContent;
    };
    expect(cell(School, 'state')).toBe('Suspended');
    expect(cell(DeviceClass, 'licensePrice1')).toBe('1,234.56');
  });

  it('marks declared sortable fields sortable and reflects the current sort', () => {
    const columns = buildColumns(School, { locale: 'en', hideAmountColumns: false, sort: { sortField: 'createdAt', sortOrder: 'asc' } });
    const createdAt = columns.find((column) => column.key === 'createdAt')!;
    expect(createdAt.sorter).toBe(true);
    expect(createdAt.sortOrder).toBe('ascend');
    expect(columns.find((column) => column.key === 'province')!.sorter).toBe(false);
  });
});

describe('School address column', () => {
  it('joins province, city and district with the street address in place of the three parts', () => {
    const built = buildColumns(School, { locale: 'zh-CN', hideAmountColumns: false });
    const columns = withSchoolAddressColumn(built, { locale: 'zh-CN', t: (key, params) => translate(key, params, 'zh-CN') });
    const keys = keysOf(columns);
    expect(keys.slice(0, 2)).toEqual(['schoolName', 'schoolAddress']);
    expect(keys).not.toContain('province');
    const row: ResourceRow = { id: 1, version: 1, province: '浙江省', city: '杭州市', area: '西湖区', schoolAddress: '文三路 90 号' };
    const address = columns[1]!.render?.(undefined, row, 0);
    expect(address).toBe('浙江省杭州市西湖区 文三路 90 号');
  });
});

describe('permissions', () => {
  const holding = (...buttons: string[]) => (button: string) => buttons.includes(button);

  it('removes toolbar buttons whose permission value is absent', () => {
    expect(allowedToolbar(School, holding('export'))).toEqual({ add: false, batchDelete: false, export: true, import: false, toggles: [], batchTransitions: [] });
    expect(allowedToolbar(School, holding('add', 'delete', 'state')).toggles).toEqual([{ field: 'state', button: 'state' }]);
  });

  it('offers the batch transitions of the buttons held, and none asking a required field', () => {
    const verbs = (...buttons: string[]) => allowedToolbar(AlbumOrder, holding(...buttons)).batchTransitions.map((transition) => transition.verb);
    expect(verbs('send')).toEqual(['Send']);
    expect(verbs('send', 'print', 'close')).toEqual(['Send', 'NotifyPrint', 'AllowPrint', 'ConfirmReceipt', 'Close']);
    // Cancel is a row's own step: not declared for batches.
    expect(verbs('update')).toEqual([]);
    expect(allowedToolbar(MaintenanceTicket, holding('state')).batchTransitions).toEqual([]);
  });

  it('keeps only the row actions the caller holds, delete last', () => {
    const kinds = (can: (b: string) => boolean) =>
      allowedRowActions(School, can).map((spec) => (spec.kind === 'action' ? spec.action.verb : spec.kind === 'transition' ? spec.transition.verb : spec.kind));
    expect(kinds(holding('update', 'delete', 'examine', 'password'))).toEqual(['edit', 'Examine', 'Resubmit', 'UpdateAdmin', 'delete']);
    // Without update there is no edit drawer, so the review history gets a row action of its own.
    expect(kinds(holding('examine'))).toEqual(['Examine', 'history']);
    expect(kinds(holding())).toEqual(['history']);
  });
});

describe('image and file cells', () => {
  const withMedia = {
    ...Student,
    fields: {
      photo: { kind: 'image', label: { zh: '照片', en: 'Photo' } },
      attachment: { kind: 'file', label: { zh: '附件', en: 'Attachment' } },
      song: { kind: 'file', files: 'audio', label: { zh: '音频文件', en: 'Audio file' } },
    },
  } as ResourceDef;
  const cell = (key: string, value: string) => {
    const column = buildColumns(withMedia, { locale: 'en', hideAmountColumns: false }).find((candidate) => candidate.key === key)!;
    const row: ResourceRow = { id: 1, version: 1, [key]: value };
    return render(<>{column.render?.(value, row, 0) as React.ReactNode}</>).container;
  };

  it('shows an uploaded image as a small thumbnail and a file as a link', async () => {
    // The thumbnail (antd's Image) downloads with the first image cell: its place is kept meanwhile.
    const photo = cell('photo', '/uploads/2026/05/AbCdEfGhIjKlMnOpQrStUv.png');
    expect(photo.querySelector('.image-thumb-placeholder')).not.toBeNull();
    await waitFor(() => expect(photo.querySelector('img')?.getAttribute('src')).toBe('/uploads/2026/05/AbCdEfGhIjKlMnOpQrStUv.png'));
    expect(cell('attachment', 'https://cdn.example.com/a/lesson.mp4').querySelector('a')?.getAttribute('href')).toBe('https://cdn.example.com/a/lesson.mp4');
  });

  it('names a stored file by its kind and extension, not by its random storage key', () => {
    setLocale('en');
    const song = cell('song', '/uploads/2026/05/AbCdEfGhIjKlMnOpQrStUv.mp3');
    expect(song.querySelector('a')?.textContent).toBe('Audio file · MP3');
    expect(song.textContent).not.toContain('AbCdEf');
  });

  it('shows a stored value that is no safe address as plain text', () => {
    const image = cell('photo', 'javascript:alert(1)');
    expect(image.querySelector('img')).toBeNull();
    const file = cell('attachment', 'javascript:alert(1)');
    expect(file.querySelector('a')).toBeNull();
    expect(file.textContent).toBe('javascript:alert(1)');
  });
});

describe('Refund columns (issue 26)', () => {
  it("shows the amounts before the long text columns, so a narrow English window never hides them under the actions", () => {
    const Refund = RESOURCES.Refund!;
    const keys = buildColumns(Refund, { locale: 'en', hideAmountColumns: false }).map((column) => column.key);
    expect(keys.slice(0, 4)).toEqual(['paymentId', 'schoolId', 'askedAmount', 'refundAmount']);
  });
});
