/**
 * Music (appMusicManage): songs albums play under their pages and terminals play while idle. The
 * file is an upload checked by its bytes (UploadAudios); the server reads its duration from the file
 * itself when the row is written, so the length shown is the file's, not a typed number.
 */
import { enabledField } from './common.js';
import { defineResource } from './define.js';

export const MUSIC_USE_OPTIONS = [
  { value: 1, zh: '相册', en: 'Albums', color: 'purple' },
  { value: 2, zh: '终端', en: 'Terminals', color: 'blue' },
  { value: 3, zh: '相册和终端', en: 'Albums and terminals', color: 'green' },
] as const;

export const MUSIC_STYLE_OPTIONS = [
  { value: 1, zh: '欢快', en: 'Cheerful' },
  { value: 2, zh: '温馨', en: 'Warm' },
  { value: 3, zh: '舒缓', en: 'Calm' },
  { value: 4, zh: '童谣', en: 'Nursery rhyme' },
] as const;

/** The longest song stored: longer files are refused (a terminal loops songs, an album plays one). */
export const MUSIC_MAX_SECONDS = 15 * 60;

export const AppMusic = defineResource({
  name: 'AppMusic',
  label: { zh: '音乐', en: 'Music' },
  table: 'app_musics',
  views: [{ frame: 'appMusicManage' }],
  scope: { via: 'global' },
  titleField: 'name',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    name: { kind: 'text', label: { zh: '歌曲名称', en: 'Title' }, required: true, max: 100, filter: 'name', sortable: true },
    singer: { kind: 'text', label: { zh: '演唱者', en: 'Artist' }, max: 50, filter: 'name', width: 130 },
    style: { kind: 'enum', options: MUSIC_STYLE_OPTIONS, label: { zh: '风格', en: 'Style' }, required: true, filter: 'equals', width: 100 },
    usedBy: { kind: 'enum', options: MUSIC_USE_OPTIONS, label: { zh: '用于', en: 'Used by' }, required: true, defaultValue: 3, filter: 'equals', width: 120 },
    file: {
      kind: 'file',
      files: 'audio',
      label: { zh: '音频文件', en: 'Audio file' },
      required: true,
      width: 200,
      length: { into: 'durationSeconds', max: MUSIC_MAX_SECONDS, messages: { notUploaded: { key: 'music.notUploaded' }, unreadable: { key: 'music.unreadable' }, tooLong: { key: 'music.tooLong', params: { minutes: MUSIC_MAX_SECONDS / 60 } } } },
    },
    durationSeconds: { kind: 'number', unit: 'seconds', label: { zh: '时长', en: 'Length' }, readOnly: true, sortable: true, width: 100 },
    enabled: enabledField(),
  },
  // appMusicManage declares no `enable` button: switching a song is an edit of it.
  toggles: [{ field: 'enabled', button: 'update' }],
});
