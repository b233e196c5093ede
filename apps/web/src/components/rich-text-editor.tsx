/**
 * The rich-text editor of a `textarea` field with `rich` (tiptap on ProseMirror): headings, emphasis,
 * lists, quotes, links and images. Its schema only writes the tags the server's allow-list keeps, and
 * the server sanitises again whatever a client sends. Loaded lazily: only pages with rich text pay for it.
 */
import { BoldOutlined, ItalicOutlined, LinkOutlined, OrderedListOutlined, PictureOutlined, StrikethroughOutlined, UnderlineOutlined, UnorderedListOutlined } from '@ant-design/icons';
import Image from '@tiptap/extension-image';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Divider, Input, Popover, Space, Tooltip } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useT } from '../lib/i18n';
import './rich-text-editor.css';

export interface RichTextEditorProps {
  id?: string;
  value?: string;
  onChange?: (html: string) => void;
}

/** An empty editor writes `<p></p>`: the form treats that as no value, so "required" still applies. */
const EMPTY_DOCUMENT = '<p></p>';

/** Links and images the editor accepts: http(s) or this server's uploads, never script or data: addresses. */
const isSafeAddress = (address: string) => /^(https?:\/\/|\/uploads\/)/i.test(address.trim());

function AddressButton({ icon, title, onSubmit }: { icon: ReactNode; title: string; onSubmit: (address: string) => void }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [address, setAddress] = useState('');
  const submit = () => {
    if (!isSafeAddress(address)) return;
    onSubmit(address.trim());
    setAddress('');
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      content={
        <Space.Compact>
          <Input value={address} onChange={(event) => setAddress(event.target.value)} onPressEnter={submit} placeholder="https://" style={{ width: 260 }} status={address && !isSafeAddress(address) ? 'error' : undefined} />
          <Button type="primary" onClick={submit} disabled={!isSafeAddress(address)}>
            {t('common.ok')}
          </Button>
        </Space.Compact>
      }
    >
      <Tooltip title={title}>
        <Button size="small" type="text" icon={icon} aria-label={title} />
      </Tooltip>
    </Popover>
  );
}

export default function RichTextEditor({ id, value, onChange }: RichTextEditorProps) {
  const t = useT();
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false, protocols: ['http', 'https'] } }), Image],
    content: value ?? '',
    immediatelyRender: true,
    onUpdate: ({ editor: current }) => {
      const html = current.getHTML();
      onChange?.(html === EMPTY_DOCUMENT ? '' : html);
    },
  });
  // A value set from outside (the form reset, a reloaded row) replaces the document.
  useEffect(() => {
    if (!editor) return;
    const current = editor.getHTML();
    if ((value ?? '') !== (current === EMPTY_DOCUMENT ? '' : current)) editor.commands.setContent(value ?? '', { emitUpdate: false });
  }, [editor, value]);
  const active = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      underline: current.isActive('underline'),
      strike: current.isActive('strike'),
      h2: current.isActive('heading', { level: 2 }),
      h3: current.isActive('heading', { level: 3 }),
      bulletList: current.isActive('bulletList'),
      orderedList: current.isActive('orderedList'),
    }),
  });

  const mark = (key: keyof typeof active, title: string, icon: ReactNode, run: () => void) => (
    <Tooltip title={title} key={key}>
      <Button size="small" type={active[key] ? 'primary' : 'text'} icon={icon} aria-label={title} aria-pressed={active[key]} onClick={run} />
    </Tooltip>
  );
  const chain = () => editor.chain().focus();
  return (
    <div className="rich-text-editor" id={id}>
      <div className="rich-text-editor-toolbar" role="toolbar">
        <Button size="small" type={active.h2 ? 'primary' : 'text'} onClick={() => chain().toggleHeading({ level: 2 }).run()} aria-pressed={active.h2}>
          H2
        </Button>
        <Button size="small" type={active.h3 ? 'primary' : 'text'} onClick={() => chain().toggleHeading({ level: 3 }).run()} aria-pressed={active.h3}>
          H3
        </Button>
        <Divider type="vertical" />
        {mark('bold', t('richText.bold'), <BoldOutlined />, () => chain().toggleBold().run())}
        {mark('italic', t('richText.italic'), <ItalicOutlined />, () => chain().toggleItalic().run())}
        {mark('underline', t('richText.underline'), <UnderlineOutlined />, () => chain().toggleUnderline().run())}
        {mark('strike', t('richText.strike'), <StrikethroughOutlined />, () => chain().toggleStrike().run())}
        <Divider type="vertical" />
        {mark('bulletList', t('richText.bulletList'), <UnorderedListOutlined />, () => chain().toggleBulletList().run())}
        {mark('orderedList', t('richText.orderedList'), <OrderedListOutlined />, () => chain().toggleOrderedList().run())}
        <Divider type="vertical" />
        <AddressButton icon={<LinkOutlined />} title={t('richText.link')} onSubmit={(href) => chain().extendMarkRange('link').setLink({ href, target: '_blank' }).run()} />
        <AddressButton icon={<PictureOutlined />} title={t('richText.image')} onSubmit={(src) => chain().setImage({ src }).run()} />
      </div>
      <EditorContent editor={editor} className="rich-text-editor-content app-article" />
    </div>
  );
}
