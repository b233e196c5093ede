/** Demo education directories: a small tree three levels deep, in sibling order. */
import type { Transaction } from '../db/client.js';
import { educationDirectories } from '../db/schema/index.js';

interface DemoDirectory {
  name: string;
  children?: DemoDirectory[];
}

const DEMO_DIRECTORIES: DemoDirectory[] = [
  {
    name: '安全教育',
    children: [
      { name: '交通安全', children: [{ name: '上下学路上' }, { name: '乘车安全' }] },
      { name: '消防安全', children: [{ name: '火灾逃生' }] },
      { name: '防溺水' },
    ],
  },
  { name: '家庭教育', children: [{ name: '亲子阅读' }, { name: '习惯养成' }] },
  { name: '心理健康', children: [{ name: '情绪管理' }] },
];

/** Inserts the demo directories level by level, so each child names its stored parent. */
export async function seedDemoDirectories(tx: Transaction): Promise<void> {
  const insertLevel = async (nodes: DemoDirectory[], parentId: number | null): Promise<void> => {
    for (const [sortOrder, node] of nodes.entries()) {
      const [stored] = await tx.insert(educationDirectories).values({ name: node.name, parentId, sortOrder, enabled: true }).returning({ id: educationDirectories.id });
      if (node.children) await insertLevel(node.children, Number(stored!.id));
    }
  };
  await insertLevel(DEMO_DIRECTORIES, null);
}
