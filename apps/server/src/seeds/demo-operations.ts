/**
 * Demo rows of the Operations pages: parents' feedback in every state, notices (two on the home page),
 * templates, app articles, help, questions, startup pages, posters and terminal ads, function tiles,
 * partner platforms, screen texts, music and questionnaires with answers, so each page shows something real.
 */
import { scopeOwnerKey } from '../platform/scope.js';
import { sealSecret } from '../platform/sealed-secrets.js';
import type { Transaction } from '../db/client.js';
import type { DemoMedia } from './demo-media.js';
import { seedDemoQuestionnaires } from './demo-questionnaires.js';
import {
  appContents,
  appCooperationPlatforms,
  appFrames,
  appMusics,
  appNoticeTemplates,
  appStartupPages,
  commonQuestions,
  liveFeedbacks,
  posterSchools,
  posters,
  screenChatContents,
  sysNotices,
  uploadedFiles,
  userFeedbacks,
  userHelps,
} from '../db/schema/index.js';

/** A date `days` from `now` as the date columns hold it. */
const dayFrom = (now: Date, days: number) => new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * With `media` (pictures and tunes put into the upload store), startup pages, posters and ads carry an
 * image and the music page lists songs; without it (no store at hand) they are left without media.
 */
export async function seedDemoOperations(tx: Transaction, demoSchools: { id: number }[], now: Date, media?: DemoMedia): Promise<void> {
  const first = demoSchools[0]!.id;
  for (const [position, school] of demoSchools.entries()) {
    await tx.insert(userFeedbacks).values([
      { schoolId: school.id, parentName: '李女士', phoneNum: `1380000${String(position).padStart(4, '0')}`, category: 2, content: '孩子入园后没有收到考勤推送，麻烦看一下。', state: 1 },
      {
        schoolId: school.id,
        parentName: '陈先生',
        phoneNum: `1380001${String(position).padStart(4, '0')}`,
        category: 1,
        content: '希望接送记录可以按周导出。',
        state: 2,
        reply: '感谢建议，下个版本会加入按周导出。',
        repliedAt: now,
      },
    ]);
    await tx.insert(liveFeedbacks).values({ schoolId: school.id, className: '大一班', parentName: '周女士', phoneNum: `1370000${String(position).padStart(4, '0')}`, kind: 1, content: '今天上午的直播画面一直卡顿。', state: position % 2 === 0 ? 1 : 2, result: position % 2 === 0 ? null : '已切换到备用线路' });
  }
  await tx.insert(userFeedbacks).values({ schoolId: first, parentName: '王先生', phoneNum: '13800009999', category: 3, content: '门口闸机识别太慢。', state: 3 });

  await tx.insert(sysNotices).values([
    { title: '系统升级通知', audience: 1, content: '本周六 00:00–02:00 系统升级，期间考勤推送可能延迟。', startDate: dayFrom(now, -3), endDate: dayFrom(now, 30), showOnHome: true },
    { title: '寒假设备巡检安排', audience: 2, content: '请各代理商于寒假前完成所辖学校的闸机巡检。', startDate: dayFrom(now, -1), endDate: dayFrom(now, 60), showOnHome: true },
    { title: '家长端新版本发布', audience: 4, content: '家长端 3.2 版支持请假申请。', startDate: dayFrom(now, -10), endDate: dayFrom(now, 20), showOnHome: false },
  ]);

  await tx.insert(appNoticeTemplates).values([
    { name: '入园通知', kind: 1, title: '{studentName}已入园', content: '{studentName}于{time}到达{schoolName}，体温{temperature}℃。', enabled: true },
    { name: '离园通知', kind: 2, title: '{studentName}已离园', content: '{studentName}于{time}由{pickUpPerson}接走。', enabled: true },
    { name: '缴费提醒', kind: 4, title: '{schoolName}缴费提醒', content: '{parentName}您好，{studentName}本学期服务费{amount}元待缴。', enabled: false },
  ]);

  await tx.insert(appContents).values([
    { title: '冬季幼儿防感冒小贴士', category: 1, summary: '勤洗手、多通风', body: '<h2>冬季防感冒</h2><p>每天开窗通风 <strong>两次</strong>，每次 30 分钟。</p><ul><li>勤洗手</li><li>多喝水</li></ul>', published: true, sort: 1 },
    { title: '消防安全演练回顾', category: 3, body: '<p>本月全园开展了消防疏散演练，用时 <em>3 分 20 秒</em>。</p>', published: true, sort: 2 },
    { title: '元旦亲子活动报名', category: 4, body: '<p>报名请联系班主任。</p>', published: false, sort: 3 },
  ]);
  await tx.insert(userHelps).values([
    { category: 1, title: '如何绑定孩子', content: '<p>在“我的”页面点击<strong>添加孩子</strong>，输入学校提供的邀请码。</p>', sort: 1, published: true },
    { category: 3, title: '如何申请退款', content: '<p>在订单详情点击“申请退款”，学校审核后原路退回。</p>', sort: 2, published: true },
  ]);
  await tx.insert(commonQuestions).values([
    { category: 2, question: '为什么收不到入园推送？', answer: '请确认已开启通知权限，并在“我的孩子”中绑定了正确的学校。', sort: 1, published: true },
    { category: 1, question: '忘记密码怎么办？', answer: '在登录页点击“忘记密码”，用手机验证码重置。', sort: 2, published: true },
    { category: 4, question: '闸机识别不了怎么办？', answer: '请联系班主任重新采集人脸照片。', sort: 3, published: false },
  ]);

  await tx.insert(appStartupPages).values([
    { name: '冬季开学季', appType: 1, image: media?.startupImages[0]?.url, link: '/activity/winter', displaySeconds: 3, startDate: dayFrom(now, -5), endDate: dayFrom(now, 40), isUsing: true },
    { name: '国庆主题', appType: 1, image: media?.startupImages[1]?.url, displaySeconds: 3, startDate: dayFrom(now, -60), endDate: dayFrom(now, -40), isUsing: false },
    { name: '教师节', appType: 2, image: media?.startupImages[2]?.url, displaySeconds: 5, startDate: dayFrom(now, -5), endDate: dayFrom(now, 30), isUsing: true },
  ]);

  const posterRows = await tx
    .insert(posters)
    .values([
      { kind: 1, title: '相册定制 8 折', image: media?.posterImages[0]?.url, displaySeconds: 5, startDate: dayFrom(now, -2), endDate: dayFrom(now, 30), audience: 1, sort: 1, enabled: true },
      { kind: 1, title: '浙江地区亲子活动', image: media?.posterImages[1]?.url, displaySeconds: 5, startDate: dayFrom(now, -2), endDate: dayFrom(now, 30), audience: 2, province: '浙江省', sort: 2, enabled: true },
      { kind: 2, title: '安全入园提示', image: media?.posterImages[2]?.url, displaySeconds: 15, startDate: dayFrom(now, -7), endDate: dayFrom(now, 60), audience: 1, sort: 1, enabled: true },
      { kind: 2, title: '本园冬季作息', image: media?.posterImages[3]?.url, displaySeconds: 20, startDate: dayFrom(now, -7), endDate: dayFrom(now, 60), audience: 3, sort: 2, enabled: true },
    ])
    .returning({ id: posters.id, audience: posters.audience });
  const chosen = posterRows.find((poster) => poster.audience === 3)!;
  await tx.insert(posterSchools).values({ posterId: chosen.id, schoolId: first });

  const [group] = await tx.insert(appFrames).values({ name: '家园共育', code: 'homeSchool', sortOrder: 1, enabled: true }).returning({ id: appFrames.id });
  const [campus] = await tx.insert(appFrames).values({ name: '校园服务', code: 'campusService', sortOrder: 2, enabled: true }).returning({ id: appFrames.id });
  await tx.insert(appFrames).values([
    { name: '考勤记录', code: 'attendance', parentId: group!.id, link: '/attendance', sortOrder: 1, enabled: true },
    { name: '宝宝相册', code: 'album', parentId: group!.id, link: '/album', sortOrder: 2, enabled: true },
    { name: '请假申请', code: 'leave', parentId: group!.id, link: '/leave', sortOrder: 3, enabled: false },
    { name: '缴费中心', code: 'payments', parentId: campus!.id, link: '/payments', sortOrder: 1, enabled: true },
    { name: '精彩课堂', code: 'liveClass', parentId: campus!.id, link: '/live', sortOrder: 2, enabled: true },
  ]);

  // One sealing for all demo partners: they share a demo key.
  const apiKey = await sealSecret(tx, 'demo-partner-key-0001');
  await tx.insert(appCooperationPlatforms).values([
    { name: '微信支付', platformType: 1, merchantNo: '1600000001', appId: 'wx8888888888', apiKey, apiKeyHint: '****0001', enabled: true },
    { name: '建行惠市宝', platformType: 3, merchantNo: '105000000001', appId: 'ccb-demo', apiKey, apiKeyHint: '****0001', contactName: '刘经理', contactPhone: '13900008888', enabled: true },
    { name: '绘本内容平台', platformType: 2, merchantNo: 'CP0001', appId: 'books-demo', apiKey, apiKeyHint: '****0001', enabled: false },
  ]);

  await tx.insert(screenChatContents).values(
    demoSchools.map((school) => ({ schoolId: school.id, content: '小朋友早上好，今天也要开心哦！', startDate: dayFrom(now, -7), endDate: dayFrom(now, 60), enabled: true })),
  );

  if (media) {
    await tx.insert(uploadedFiles).values(media.all.map((file) => ({ key: file.key, scopeKey: scopeOwnerKey({ id: 0, type: 'company', parentId: null }), size: file.size, sha256: file.sha256 })));
    const [twinkle, frere, scale] = media.songs;
    await tx.insert(appMusics).values([
      { name: '小星星', singer: '童声合唱团', style: 4, usedBy: 3, file: twinkle!.file.url, durationSeconds: twinkle!.seconds, enabled: true },
      { name: '两只老虎', singer: '童声合唱团', style: 1, usedBy: 1, file: frere!.file.url, durationSeconds: frere!.seconds, enabled: true },
      { name: '晨间音阶', singer: '园所原创', style: 3, usedBy: 2, file: scale!.file.url, durationSeconds: scale!.seconds, enabled: false },
    ]);
  }

  await seedDemoQuestionnaires(tx, demoSchools, now);
}
