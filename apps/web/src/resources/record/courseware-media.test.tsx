import { API_PATHS, EducationCourseware } from '@campus/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TestApp } from '../../test/antd.js';
import { setLocale } from '../../lib/i18n';
import type { ResourceApi, ResourceRow } from '../shared/resource-api';
import { RecordDrawer } from './record-drawer';
import { RecordView } from './record-view';

const uploadFiles = vi.fn();
const grabPosterFrame = vi.fn();
vi.mock('../../lib/upload', () => ({ uploadFiles: (...args: unknown[]) => uploadFiles(...args) }));
vi.mock('../../lib/video-poster', () => ({ grabPosterFrame: (...args: unknown[]) => grabPosterFrame(...args) }));

const WAIT = { timeout: 5000 };
const SIGNATURE = `e=1999999999&s=${'a'.repeat(43)}`;
const VIDEO_URL = `/uploads/2026/11/${'V'.repeat(22)}.mp4?${SIGNATURE}`;
const POSTER_URL = `/uploads/2026/11/${'P'.repeat(22)}.jpg?${SIGNATURE}`;

const videoRow = {
  id: 5,
  version: 1,
  title: '火灾逃生演练',
  directoryId: 3,
  directoryIdLabel: '火灾逃生',
  schoolId: 1,
  schoolIdLabel: '阳光幼儿园',
  kind: 1,
  posterImage: null,
  videoFile: null,
  documentFile: null,
  durationSeconds: null,
  remark: null,
  enabled: true,
} as unknown as ResourceRow;

const wrap = (children: ReactNode) => (
  <TestApp>
    <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>
  </TestApp>
);

describe('courseware in the record drawer and view', { timeout: 15_000 }, () => {
  beforeEach(() => {
    setLocale('en');
    uploadFiles.mockReset();
    grabPosterFrame.mockReset();
  });

  it('takes the poster from a frame of the video just chosen and stores it as an image upload', async () => {
    uploadFiles.mockImplementation(async (path: string, files: File[]) =>
      path === API_PATHS.uploadVideos ? [{ url: VIDEO_URL, name: files[0]!.name, size: 10, contentType: 'video/mp4' }] : [{ url: POSTER_URL, name: files[0]!.name, size: 5, contentType: 'image/jpeg' }],
    );
    grabPosterFrame.mockResolvedValue(new Blob(['jpeg bytes'], { type: 'image/jpeg' }));
    const update = vi.fn(async () => ({ id: 5, version: 2 }));
    render(wrap(<RecordDrawer def={EducationCourseware} api={{ update } as unknown as ResourceApi} target={{ mode: 'edit', row: videoRow }} hiddenFields={new Set()} presetValues={{}} onClose={vi.fn()} onSaved={vi.fn()} />));
    await screen.findByDisplayValue('火灾逃生演练', undefined, WAIT);
    const videoInput = [...document.querySelectorAll<HTMLInputElement>('input[type="file"]')].find((input) => input.accept.includes('video/mp4'))!;
    const picked = new File(['mp4 bytes'], 'fire-drill.mp4', { type: 'video/mp4' });
    fireEvent.change(videoInput, { target: { files: [picked] } });
    await waitFor(() => expect(grabPosterFrame).toHaveBeenCalledWith(picked), WAIT);
    await waitFor(() => expect(uploadFiles).toHaveBeenCalledTimes(2), WAIT);
    const [path, [poster]] = uploadFiles.mock.calls[1] as [string, [File]];
    expect([path, poster.type, poster.name]).toEqual([API_PATHS.uploadImages, 'image/jpeg', 'fire-drill-poster.jpg']);
    // The poster field holds the stored frame: both addresses go out with the save.
    fireEvent.click(screen.getByText('Save').closest('button')!);
    await waitFor(() => expect(update).toHaveBeenCalledWith(expect.objectContaining({ id: 5, version: 1, videoFile: VIDEO_URL, posterImage: POSTER_URL })), WAIT);
  });

  it('keeps the video when no frame can be taken, and says the poster may be uploaded by hand', async () => {
    uploadFiles.mockResolvedValue([{ url: VIDEO_URL, name: 'x.mp4', size: 10, contentType: 'video/mp4' }]);
    grabPosterFrame.mockRejectedValue(new Error('the video cannot be decoded'));
    render(wrap(<RecordDrawer def={EducationCourseware} api={{} as ResourceApi} target={{ mode: 'edit', row: videoRow }} hiddenFields={new Set()} presetValues={{}} onClose={vi.fn()} onSaved={vi.fn()} />));
    await screen.findByDisplayValue('火灾逃生演练', undefined, WAIT);
    const videoInput = [...document.querySelectorAll<HTMLInputElement>('input[type="file"]')].find((input) => input.accept.includes('video/mp4'))!;
    fireEvent.change(videoInput, { target: { files: [new File(['?'], 'x.mp4', { type: 'video/mp4' })] } });
    expect(await screen.findByText(/could not take a poster/, undefined, WAIT)).toBeTruthy();
    expect(uploadFiles).toHaveBeenCalledTimes(1);
  });

  it('plays a stored video with its poster in the record view, and shows no player for a document', async () => {
    const played = { ...videoRow, videoFile: VIDEO_URL, posterImage: POSTER_URL, durationSeconds: 184 } as ResourceRow;
    const { unmount } = render(wrap(<RecordView def={EducationCourseware} api={{} as ResourceApi} row={played} hiddenFields={new Set()} onClose={vi.fn()} />));
    const player = (await screen.findByTestId('record-player', undefined, WAIT)) as HTMLVideoElement;
    expect([player.getAttribute('src'), player.getAttribute('poster'), player.controls, player.preload]).toEqual([VIDEO_URL, POSTER_URL, true, 'metadata']);
    unmount();
    const documentRow = { ...videoRow, kind: 2, documentFile: `/uploads/2026/11/${'D'.repeat(22)}.pdf?${SIGNATURE}` } as ResourceRow;
    render(wrap(<RecordView def={EducationCourseware} api={{} as ResourceApi} row={documentRow} hiddenFields={new Set()} onClose={vi.fn()} />));
    await screen.findByTestId('record-view', undefined, WAIT);
    expect(screen.queryByTestId('record-player')).toBeNull();
  });
});
